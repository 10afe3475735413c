import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLiveQuery } from '../../lib/live-query.ts';
import { families } from '../../../shared/contract/families.ts';
import type { AddChildInput, FamilyChild } from '../../../shared/families.ts';
import { POLL_MS } from '../../../shared/constants.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';

/** The family area's reads, kept fresh by the 'family' event of the live stream (polled only while it is down). */

export function useFamilyChildren() {
  return useLiveQuery(readOf(families.children), POLL_MS.dashboard);
}

export function useChildSummary(id: string) {
  return useLiveQuery(readOf(families.childSummary, { params: { id } }), POLL_MS.dashboard);
}

export function useImageConsent(id: string) {
  const client = useQueryClient();
  return useMutation<{ message: string }, ApiError, boolean>({
    mutationFn: (consent) => call(families.imageConsent, { params: { id }, body: { consent } }),
    onSuccess: () => invalidateReads(client, [families.childSummary]),
  });
}

export function useAddChild() {
  const client = useQueryClient();
  return useMutation<FamilyChild, ApiError, AddChildInput>({
    mutationFn: (body) => call(families.addChild, { body }),
    onSuccess: () => invalidateReads(client, [families.children]),
  });
}
