import { Inject, Injectable } from '@nestjs/common';
import type { Price, PriceList, PriceProvider, PutPriceInput } from '@toolgate/contract';
import type { AuditEntry } from '../audit/audit.repository';
import type { Principal } from '../auth/principal';
import { ToolException } from '../problem/tool.exception';
import { DEFAULT_PRICES, DEFAULT_PRICES_TAKEN_ON } from './default-prices';
import { PriceBook } from './price-book';
import { PricesRepository, type CustomPriceRow } from './prices.repository';

function customPrice(row: CustomPriceRow): Price {
  return {
    provider: row.provider,
    model: row.model,
    input: row.input,
    output: row.output,
    cache_read: row.cache_read,
    cache_write: row.cache_write,
    source: 'custom',
    updated_at: row.updatedAt.toISOString(),
    updated_by: row.updatedBy,
  };
}

/** Prices hold for every team: only a caller spanning teams (the installation key, console admins) sets them. */
function requireInstallationAdmin(principal: Principal): void {
  if (principal.teamId !== null)
    throw new ToolException(
      'forbidden',
      'Prices hold for every team: only the installation admin key or a console admin changes them.',
    );
}

/** The token price table: shipped defaults, overridden by the platform team's custom prices. */
@Injectable()
export class PricesService {
  constructor(
    @Inject(PricesRepository) private readonly prices: PricesRepository,
    @Inject(PriceBook) private readonly book: PriceBook,
  ) {}

  async list(): Promise<PriceList> {
    const custom = await this.prices.list();
    const byKey = new Map<string, Price>();
    for (const { provider, model, ...prices } of DEFAULT_PRICES) {
      byKey.set(`${provider} ${model}`, {
        provider,
        model,
        ...prices,
        source: 'default',
        updated_at: null,
        updated_by: null,
      });
    }
    for (const row of custom) byKey.set(`${row.provider} ${row.model}`, customPrice(row));
    const items = [...byKey.values()].sort(
      (a, b) => a.provider.localeCompare(b.provider) || a.model.localeCompare(b.model),
    );
    return { items, currency: 'USD', defaults_taken_on: DEFAULT_PRICES_TAKEN_ON };
  }

  async put(
    principal: Principal,
    key: { provider: PriceProvider; model: string },
    body: PutPriceInput,
  ): Promise<Price> {
    requireInstallationAdmin(principal);
    const row = await this.prices.put(
      key,
      { ...body, updatedBy: principal.actor },
      this.audit(principal, { action: 'price.set', key, data: { ...body } }),
    );
    this.book.invalidate();
    return customPrice(row);
  }

  async delete(
    principal: Principal,
    key: { provider: PriceProvider; model: string },
  ): Promise<void> {
    const deleted = await this.prices.delete(
      key,
      this.audit(principal, { action: 'price.deleted', key, data: {} }),
    );
    if (!deleted)
      throw new ToolException(
        'not_found',
        `No custom price for ${key.provider} model ${key.model}.`,
      );
    this.book.invalidate();
  }

  /** The audit entry of a change: installation-wide, so no team. */
  private audit(
    principal: Principal,
    change: {
      action: string;
      key: { provider: PriceProvider; model: string };
      data: Record<string, unknown>;
    },
  ): AuditEntry {
    return {
      actor: principal.actor,
      teamId: null,
      action: change.action,
      entityType: 'price',
      entityId: `${change.key.provider}/${change.key.model}`,
      data: { provider: change.key.provider, model: change.key.model, ...change.data },
    };
  }
}
