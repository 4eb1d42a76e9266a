import { Inject, Injectable } from '@nestjs/common';
import type { Actor, Actors } from '@toolgate/contract';
import { ApiKeysRepository } from '../api-keys/api-keys.repository';
import { ConsoleUsersRepository } from '../console-auth/console-users.repository';
import { parseActor } from './actor-string';

/**
 * Names the actor strings of an answer (`key:<id>` becomes the key's name and team), so every
 * client shows people names instead of UUIDs. Two reads per answer, whatever its length.
 */
@Injectable()
export class ActorsService {
  constructor(
    @Inject(ApiKeysRepository) private readonly keys: ApiKeysRepository,
    @Inject(ConsoleUsersRepository) private readonly users: ConsoleUsersRepository,
  ) {}

  async describe(actors: ReadonlyArray<string | null | undefined>): Promise<Actors> {
    const distinct = [
      ...new Set(actors.filter((actor): actor is string => typeof actor === 'string')),
    ];
    const parsed = distinct.map((actor) => [actor, parseActor(actor)] as const);
    const idsOf = (kind: Actor['kind']) => [
      ...new Set(parsed.filter(([, entry]) => entry.kind === kind).map(([, entry]) => entry.id)),
    ];
    const [keys, users] = await Promise.all([
      this.keys.findNames(idsOf('key')),
      this.users.findNames(idsOf('user')),
    ]);
    const keyById = new Map(keys.map((key) => [key.id, key]));
    const userByEmail = new Map(users.map((user) => [user.email, user]));
    const described: Actors = {};
    for (const [actor, { kind, id }] of parsed) {
      const key = kind === 'key' ? keyById.get(id) : undefined;
      const name =
        kind === 'admin'
          ? 'Bootstrap admin key'
          : kind === 'user'
            ? (userByEmail.get(id)?.name ?? null)
            : (key?.name ?? null);
      described[actor] = { kind, id, name, team_name: key?.team.name ?? null };
    }
    return described;
  }
}
