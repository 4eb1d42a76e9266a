import { Inject, Injectable } from '@nestjs/common';
import {
  priceKeysOf,
  priceTokens,
  pricingProviderOf,
  splitTurnTokens,
  type Provider,
  type TokenPrices,
  type TurnUsage,
} from '@toolgate/adapters';
import type { PriceProvider } from '@toolgate/contract';
import type { CallTokenCost } from '@toolgate/persistence';
import { DEFAULT_PRICES } from './default-prices';
import { PricesRepository } from './prices.repository';

/** How long another replica's price change may take to reach this process. */
export const PRICE_BOOK_REFRESH_MS = 30_000;

/** The price a model is charged at, or why there is none. */
export type PriceLookup =
  { ok: true; prices: TokenPrices; source: 'default' | 'custom' } | { ok: false; reason: string };

interface Snapshot {
  byKey: ReadonlyMap<string, { prices: TokenPrices; source: 'default' | 'custom' }>;
  loadedAt: number;
}

const keyOf = (provider: PriceProvider, model: string) => `${provider} ${model}`;

/**
 * The price table in memory, so recording a call prices its tokens without a database read: the
 * shipped defaults overlaid with the custom prices, reloaded after every change made here and at
 * most PRICE_BOOK_REFRESH_MS after one made by another replica (the stale table serves meanwhile).
 */
@Injectable()
export class PriceBook {
  private snapshot: Snapshot | undefined;
  private loading: Promise<Snapshot> | undefined;

  constructor(@Inject(PricesRepository) private readonly prices: PricesRepository) {}

  /** The price of a model, trying its dated snapshot's base name after the name itself. */
  async lookup(provider: PriceProvider, model: string): Promise<PriceLookup> {
    const { byKey } = await this.current();
    for (const key of priceKeysOf(model)) {
      const found = byKey.get(keyOf(provider, key));
      if (found !== undefined) return { ok: true, ...found };
    }
    return {
      ok: false,
      reason: `no price for ${provider} model "${model}"; set one with PUT /v1/prices/${provider}/{model}`,
    };
  }

  /**
   * Each call's share of a turn's tokens (see `splitTurnTokens`) and its price, in the calls'
   * order; undefined when the posted payload carried no usage or the wire has no pricing provider.
   */
  async costTurn(input: {
    provider: Provider;
    usage: TurnUsage | undefined;
    arguments: ReadonlyArray<Record<string, unknown>>;
  }): Promise<CallTokenCost[] | undefined> {
    const pricing = pricingProviderOf(input.provider);
    if (input.usage === undefined || pricing === undefined) return undefined;
    const { model, tokens } = input.usage;
    const price: PriceLookup =
      model === null
        ? { ok: false, reason: 'the response names no model' }
        : await this.lookup(pricing, model);
    const shares = splitTurnTokens(
      tokens,
      input.arguments.map((args) => ({ argumentsLength: JSON.stringify(args).length })),
    );
    return shares.map((share) => ({
      model,
      tokens: share,
      usd: price.ok ? priceTokens(share, price.prices) : null,
      unpricedReason: price.ok ? null : price.reason,
    }));
  }

  /** Drops the table, so the next lookup reads the changed one. */
  invalidate(): void {
    this.snapshot = undefined;
  }

  private async current(): Promise<Snapshot> {
    const snapshot = this.snapshot;
    if (snapshot !== undefined) {
      if (Date.now() - snapshot.loadedAt > PRICE_BOOK_REFRESH_MS)
        void this.load().catch(() => undefined);
      return snapshot;
    }
    return this.load();
  }

  private load(): Promise<Snapshot> {
    this.loading ??= (async () => {
      try {
        const byKey = new Map<string, { prices: TokenPrices; source: 'default' | 'custom' }>();
        for (const { provider, model, ...prices } of DEFAULT_PRICES)
          byKey.set(keyOf(provider, model), { prices, source: 'default' });
        for (const row of await this.prices.list()) {
          const { input, output, cache_read, cache_write } = row;
          byKey.set(keyOf(row.provider, row.model), {
            prices: { input, output, cache_read, cache_write },
            source: 'custom',
          });
        }
        const loaded = { byKey, loadedAt: Date.now() };
        this.snapshot = loaded;
        return loaded;
      } finally {
        this.loading = undefined;
      }
    })();
    return this.loading;
  }
}
