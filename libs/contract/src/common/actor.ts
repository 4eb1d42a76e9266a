import { z } from 'zod';

/**
 * What kind of caller an actor string names: `key:<id>` an API key, `user:<email>` a console
 * user, `admin` the bootstrap key, `oauth:<issuer>#<subject>` an OAuth token; anything else
 * (an actor written by an older release, a system job) is `other`.
 */
export const ActorKindSchema = z.enum(['key', 'user', 'admin', 'oauth', 'other']);
export type ActorKind = z.infer<typeof ActorKindSchema>;

/** Who an actor string of an answer is, for people: the key's or the person's name and team. */
export const ActorSchema = z
  .object({
    kind: ActorKindSchema,
    id: z.string().meta({
      description:
        "The actor's own id: the key's uuid, the console user's email, `admin`, the OAuth `issuer#subject`, or the whole string for `other`.",
    }),
    name: z.string().nullable().meta({
      description:
        "The key's or the console user's name; null when it is unknown (a deleted key, an OAuth token).",
    }),
    team_name: z
      .string()
      .nullable()
      .meta({ description: "The key's team; null for everyone who spans teams." }),
  })
  .meta({ id: 'Actor' });
export type Actor = z.infer<typeof ActorSchema>;

/** The actors an answer mentions, by the actor strings its members carry (`key:<id>`, ...). */
export const ActorsSchema = z.record(z.string(), ActorSchema).meta({
  description:
    'Who each actor string of this answer is (`requested_by`, `decided_by`, `actor`, `updated_by`, ...), keyed by that string.',
});
export type Actors = z.infer<typeof ActorsSchema>;
