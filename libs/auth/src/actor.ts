import type { ApiRole } from '@app/database';

/** Who is calling: the token's name is what audit trails record. */
export interface Actor {
  name: string;
  role: ApiRole;
}

/** Admin is trusted with everything the other roles may do. */
export function actorHasRole(actor: Actor, allowed: readonly ApiRole[]): boolean {
  return actor.role === 'admin' || allowed.includes(actor.role);
}
