import { atom } from 'jotai';

/** Client choices only; server data lives in react-query. All of them reset on logout and tenant switch. */
export const mobileMenuOpenAtom = atom(false);
