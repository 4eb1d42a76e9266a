import { z } from 'zod';
import { ConsoleRoleSchema, type ConsoleRole } from './console-roles';

const EmailSchema = z.string().trim().toLowerCase().pipe(z.email().max(254));

// Long enough to resist guessing; capped so hashing an attacker's megabyte costs nothing extra.
const PasswordSchema = z.string().min(12).max(1024);

export const SignInSchema = z.strictObject({
  email: EmailSchema,
  // Any non-empty string up to the cap: a sign-in must not reveal the password policy's reasons.
  password: z.string().min(1).max(1024),
});
export type SignInDto = z.infer<typeof SignInSchema>;

export const CreateConsoleUserSchema = z.strictObject({
  email: EmailSchema,
  name: z.string().trim().min(1).max(200),
  role: ConsoleRoleSchema,
  password: PasswordSchema,
});
export type CreateConsoleUserDto = z.infer<typeof CreateConsoleUserSchema>;

export const UpdateConsoleUserSchema = z
  .strictObject({
    role: ConsoleRoleSchema.optional(),
    disabled: z.boolean().optional(),
  })
  .refine((body) => body.role !== undefined || body.disabled !== undefined, {
    message: 'set role, disabled or both',
  });
export type UpdateConsoleUserDto = z.infer<typeof UpdateConsoleUserSchema>;

export const ConsoleUserIdParamSchema = z.uuid();

export interface ConsoleUserDto {
  id: string;
  email: string;
  name: string;
  role: ConsoleRole;
}

/** A user as admins see it in the user list. */
export interface ConsoleUserDetailDto extends ConsoleUserDto {
  disabled: boolean;
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** The body of POST and GET /v1/console/session. */
export interface ConsoleSessionDto {
  user: ConsoleUserDto;
  csrf_token: string;
  expires_at: string;
}
