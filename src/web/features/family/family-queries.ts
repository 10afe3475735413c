import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { families } from '../../../shared/contract/families.ts';
import type { AddChildInput, FamilyChild } from '../../../shared/families.ts';
import { POLL_MS } from '../../../shared/constants.ts';
import { call, type ApiError } from '../../lib/api.ts';
import { invalidateReads, readOf } from '../../lib/query-keys.ts';

/*
 * The family area's reads. The live stream does not yet carry a guardian's children's events (decision 037, "Not
 * yet"), so these poll at the dashboard's pace meanwhile.
 */

export function useFamilyChildren() {
  const read = readOf(families.children);
  return useQuery({ ...read, refetchInterval: POLL_MS.dashboard });
}

export function useChildSummary(id: string) {
  const read = readOf(families.childSummary, { params: { id } });
  return useQuery({ ...read, refetchInterval: POLL_MS.dashboard });
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
