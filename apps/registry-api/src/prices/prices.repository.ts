import { Inject, Injectable } from '@nestjs/common';
import type { PriceProvider, PutPriceInput } from '@toolgate/contract';
import { appendAuditEvent, type AuditEntry } from '../audit/audit.repository';
import type { Database } from '../database/database';
import { DATABASE } from '../database/database.tokens';
import { inTransaction } from '../database/transaction';

/** A custom price as the table holds it. */
export interface CustomPriceRow {
  provider: PriceProvider;
  model: string;
  input: number;
  output: number;
  cache_read: number;
  cache_write: number;
  updatedBy: string;
  updatedAt: Date;
}

function rowOf(row: {
  provider: string;
  model: string;
  inputUsdPerMtok: number;
  outputUsdPerMtok: number;
  cacheReadUsdPerMtok: number;
  cacheWriteUsdPerMtok: number;
  updatedBy: string;
  updatedAt: Date;
}): CustomPriceRow {
  return {
    // Written only through PUT /v1/prices, whose params are the contract's providers.
    provider: row.provider as PriceProvider,
    model: row.model,
    input: row.inputUsdPerMtok,
    output: row.outputUsdPerMtok,
    cache_read: row.cacheReadUsdPerMtok,
    cache_write: row.cacheWriteUsdPerMtok,
    updatedBy: row.updatedBy,
    updatedAt: row.updatedAt,
  };
}

/** The `model_prices` table: custom prices, each change in one transaction with its audit event. */
@Injectable()
export class PricesRepository {
  constructor(@Inject(DATABASE) private readonly database: Database) {}

  async list(): Promise<CustomPriceRow[]> {
    const rows = await this.database.prisma.modelPrice.findMany({
      orderBy: [{ provider: 'asc' }, { model: 'asc' }],
    });
    return rows.map(rowOf);
  }

  /** Sets a custom price; returns it as stored. */
  async put(
    key: { provider: PriceProvider; model: string },
    prices: PutPriceInput & { updatedBy: string },
    audit: AuditEntry,
  ): Promise<CustomPriceRow> {
    return inTransaction(this.database.prisma, async (tx) => {
      const data = {
        inputUsdPerMtok: prices.input,
        outputUsdPerMtok: prices.output,
        cacheReadUsdPerMtok: prices.cache_read,
        cacheWriteUsdPerMtok: prices.cache_write,
        updatedBy: prices.updatedBy,
        updatedAt: new Date(),
      };
      const row = await tx.modelPrice.upsert({
        where: { provider_model: key },
        create: { ...key, ...data },
        update: data,
      });
      await appendAuditEvent(tx, audit);
      return rowOf(row);
    });
  }

  /** Removes a custom price; false when there was none. */
  async delete(
    key: { provider: PriceProvider; model: string },
    audit: AuditEntry,
  ): Promise<boolean> {
    return inTransaction(this.database.prisma, async (tx) => {
      const { count } = await tx.modelPrice.deleteMany({ where: key });
      if (count === 0) return false;
      await appendAuditEvent(tx, audit);
      return true;
    });
  }
}
