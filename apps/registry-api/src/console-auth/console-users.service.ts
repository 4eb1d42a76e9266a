import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type {
  ConsoleUser,
  ConsoleUserDetail,
  ConsoleUserList,
  CreateConsoleUserInput,
  UpdateConsoleUserInput,
} from '@toolgate/contract';
import type { Principal } from '../auth/principal';
import { ConfigError, type AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../database/database.tokens';
import { ToolException } from '../problem/tool.exception';
import { hashPassword } from './console-password';
import {
  ConsoleEmailTakenError,
  ConsoleUsersRepository,
  LastAdminError,
  type ConsoleUserRow,
} from './console-users.repository';

/** The audit actor of users created from the environment at start. */
export const BOOTSTRAP_ACTOR = 'system:bootstrap';

export function consoleUserToDto(row: ConsoleUserRow): ConsoleUser {
  return { id: row.id, email: row.email, name: row.name, role: row.role };
}

function toDetailDto(row: ConsoleUserRow): ConsoleUserDetail {
  return {
    ...consoleUserToDto(row),
    disabled: row.disabledAt !== null,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

@Injectable()
export class ConsoleUsersService implements OnApplicationBootstrap {
  private readonly logger = new Logger(ConsoleUsersService.name);

  constructor(
    @Inject(ConsoleUsersRepository) private readonly users: ConsoleUsersRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Creates the first admin from the environment when no user has that email; never overwrites. */
  async onApplicationBootstrap(): Promise<void> {
    const email = this.config.TOOLGATE_CONSOLE_ADMIN_EMAIL?.toLowerCase();
    const password = this.config.TOOLGATE_CONSOLE_ADMIN_PASSWORD;
    if (email === undefined && password === undefined) return;
    if (email === undefined || password === undefined) {
      throw new ConfigError(
        'Set TOOLGATE_CONSOLE_ADMIN_EMAIL and TOOLGATE_CONSOLE_ADMIN_PASSWORD together.',
      );
    }
    if ((await this.users.findByEmail(email)) !== null) return;
    try {
      await this.insert({ email, name: 'Administrator', role: 'admin', password }, BOOTSTRAP_ACTOR);
      this.logger.log(`created the first console admin ${email}`);
    } catch (error) {
      // Another replica starting at the same moment created it first.
      if (!(error instanceof ConsoleEmailTakenError)) throw error;
    }
  }

  async list(): Promise<ConsoleUserList> {
    return { items: (await this.users.list()).map(toDetailDto) };
  }

  async create(principal: Principal, body: CreateConsoleUserInput): Promise<ConsoleUserDetail> {
    try {
      return toDetailDto(await this.insert(body, principal.actor));
    } catch (error) {
      if (!(error instanceof ConsoleEmailTakenError)) throw error;
      throw new ToolException('conflict', error.message, {
        issues: [{ path: '/body/email', message: 'is already taken' }],
      });
    }
  }

  async update(
    principal: Principal,
    id: string,
    body: UpdateConsoleUserInput,
  ): Promise<ConsoleUserDetail> {
    const existing = await this.users.findById(id);
    if (existing === null) {
      throw new ToolException('not_found', `Console user ${id} was not found.`);
    }
    const disabledAt =
      body.disabled === undefined
        ? undefined
        : body.disabled
          ? (existing.disabledAt ?? new Date())
          : null;
    try {
      const updated = await this.users.update(
        id,
        { role: body.role, disabledAt },
        {
          actor: principal.actor,
          teamId: null,
          action: 'console_user.updated',
          entityType: 'console_user',
          entityId: id,
          data: {
            email: existing.email,
            before: { role: existing.role, disabled: existing.disabledAt !== null },
            after: {
              role: body.role ?? existing.role,
              disabled: body.disabled ?? existing.disabledAt !== null,
            },
          },
        },
      );
      return toDetailDto(updated);
    } catch (error) {
      if (!(error instanceof LastAdminError)) throw error;
      throw new ToolException(
        'conflict',
        'This change would leave no active admin; make another user admin first.',
      );
    }
  }

  private async insert(
    user: { email: string; name: string; role: ConsoleUserRow['role']; password: string },
    actor: string,
  ): Promise<ConsoleUserRow> {
    const id = randomUUID();
    return this.users.create(
      {
        id,
        email: user.email,
        name: user.name,
        role: user.role,
        passwordHash: await hashPassword(user.password),
        createdBy: actor,
      },
      {
        actor,
        teamId: null,
        action: 'console_user.created',
        entityType: 'console_user',
        entityId: id,
        data: { email: user.email, name: user.name, role: user.role },
      },
    );
  }
}
