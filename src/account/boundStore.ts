/**
 * The CredentialsStore a client is built with, bound to the one sign-in it was built for. Each
 * new client starts a new generation; a client of an older one (closed, but with a call still on
 * its way) reads "signed out" and its renewed session is dropped, so it can never write the
 * previous account's session over the next one's, even when both live at the same address.
 */
import type { Credentials, CredentialsStore } from '../api/auth/auth';

export interface SignInSlot {
  /** Counts the clients built so far: the sign-in a store belongs to. */
  generation(): number;
  credentials(): Credentials | undefined;
  /** Persists a renewed session of `generation` (the slot checks again once it is written). */
  persist(next: Credentials, generation: number): Promise<void>;
}

export function boundStore(slot: SignInSlot, generation: number): CredentialsStore {
  return {
    get: () => Promise.resolve(slot.generation() === generation ? slot.credentials() : undefined),
    set: async (next) => {
      if (slot.generation() !== generation) return;
      await slot.persist(next, generation);
    },
  };
}
