import { Users } from 'lucide-react';
import FamilyPage from '../features/family/family-page.tsx';
import { paths } from '../lib/paths.ts';
import type { AppRoute } from './route-types.ts';

/** Screens of the family area (decision 037): the guardian's children, on one phone-first page. */
export const familyRoutes: AppRoute[] = [{ path: paths.familia.home, Component: FamilyPage, nav: { label: 'Meus filhos', icon: Users } }];
