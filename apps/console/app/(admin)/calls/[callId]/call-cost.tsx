import type { Call } from '@toolgate/contract';
import { Fragment } from 'react';
import { formatUsd } from '../../../lib/format';

const TOKEN_KINDS = ['input', 'output', 'cache_read', 'cache_write', 'reasoning'] as const;

/** What the call cost: its tool's own cost and its share of the model turn's tokens. */
export function CallCost({ cost }: { cost: Call['cost'] }) {
  return (
    <section className="card" aria-labelledby="cost-heading">
      <h3 id="cost-heading">Cost</h3>
      <dl className="pairs">
        <dt>total</dt>
        <dd>{formatUsd(cost.total_usd)}</dd>
        <dt>tool</dt>
        <dd>
          {formatUsd(cost.tool_usd)}
          {cost.tool_source === null ? null : <span className="hint"> ({cost.tool_source})</span>}
        </dd>
        <dt>tokens</dt>
        <dd>
          {formatUsd(cost.tokens_usd)}
          {cost.model === null ? null : (
            <span className="hint">
              {' '}
              ({cost.provider ?? 'unknown provider'} {cost.model})
            </span>
          )}
        </dd>
        {cost.tokens === null
          ? null
          : TOKEN_KINDS.map((kind) => (
              <Fragment key={kind}>
                <dt>{kind.replaceAll('_', ' ')} tokens</dt>
                <dd>{cost.tokens?.[kind].toLocaleString('en-GB')}</dd>
              </Fragment>
            ))}
      </dl>
      {cost.tokens_unpriced_reason === null ? null : (
        <p className="warning">Tokens not priced: {cost.tokens_unpriced_reason}</p>
      )}
      {cost.tokens === null ? (
        <p className="hint">
          No token usage: the app posted the model&apos;s message, not its whole response.
        </p>
      ) : (
        <p className="hint">This call&apos;s share of its model turn&apos;s tokens.</p>
      )}
    </section>
  );
}
