import { z } from 'zod';
import { TimestampSchema } from '../common/pagination';

/** What a console user may do; each role includes the ones before it. */
export const CONSOLE_ROLES = ['viewer', 'approver', 'admin'] as const;
export const ConsoleRoleSchema = z.enum(CONSOLE_ROLES).meta({
  description:
    '`viewer` reads what the console shows, `approver` also decides approvals, `admin` may do everything (the `admin` scope).',
});
export type ConsoleRole = z.infer<typeof ConsoleRoleSchema>;

const ConsoleEmailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));

// Long enough to resist guessing; capped so hashing an attacker's megabyte costs nothing extra.
const ConsolePasswordSchema = z.string().min(12).max(1024);

export const ConsoleSignInSchema = z.strictObject({
  email: ConsoleEmailSchema,
  // Any non-empty string up to the cap: a sign-in must not reveal the password policy's reasons.
  password: z.string().min(1).max(1024),
});
export type ConsoleSignInRequest = z.input<typeof ConsoleSignInSchema>;
export type ConsoleSignInInput = z.output<typeof ConsoleSignInSchema>;

export const CreateConsoleUserSchema = z.strictObject({
  email: ConsoleEmailSchema,
  name: z.string().trim().min(1).max(200),
  role: ConsoleRoleSchema,
  password: ConsolePasswordSchema.meta({ description: '12 to 1024 characters.' }),
});
export type CreateConsoleUserRequest = z.input<typeof CreateConsoleUserSchema>;
export type CreateConsoleUserInput = z.output<typeof CreateConsoleUserSchema>;

export const UpdateConsoleUserSchema = z
  .strictObject({
    role: ConsoleRoleSchema.optional(),
    disabled: z
      .boolean()
      .optional()
      .meta({ description: 'Disabling also ends every session of the user.' }),
  })
  .refine((body) => body.role !== undefined || body.disabled !== undefined, {
    message: 'set role, disabled or both',
  });
export type UpdateConsoleUserRequest = z.input<typeof UpdateConsoleUserSchema>;
export type UpdateConsoleUserInput = z.output<typeof UpdateConsoleUserSchema>;

export const ConsoleUserIdSchema = z.uuid().meta({ description: "The console user's id." });

export const ConsoleUserSchema = z
  .object({
    id: ConsoleUserIdSchema,
    email: z.string().meta({ description: 'Lower case.' }),
    name: z.string(),
    role: ConsoleRoleSchema,
  })
  .meta({ id: 'ConsoleUser' });
export type ConsoleUser = z.infer<typeof ConsoleUserSchema>;

/** A user as admins see it in the user list. */
export const ConsoleUserDetailSchema = ConsoleUserSchema.extend({
  disabled: z.boolean().meta({ description: 'A disabled user cannot sign in.' }),
  created_by: z.string().meta({ description: 'The audit actor that created the user.' }),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
}).meta({ id: 'ConsoleUserDetail' });
export type ConsoleUserDetail = z.infer<typeof ConsoleUserDetailSchema>;

export const ConsoleUserListSchema = z.object({ items: z.array(ConsoleUserDetailSchema) });
export type ConsoleUserList = z.infer<typeof ConsoleUserListSchema>;

/** The body of POST and GET /v1/console/session. */
export const ConsoleSessionSchema = z
  .object({
    user: ConsoleUserSchema,
    csrf_token: z.string().meta({
      description:
        'Send it in the `x-csrf-token` header with every change made with the session cookie.',
    }),
    expires_at: TimestampSchema,
  })
  .meta({ id: 'ConsoleSession' });
export type ConsoleSession = z.infer<typeof ConsoleSessionSchema>;
