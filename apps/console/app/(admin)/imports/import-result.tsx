'use client';

import { approvalSentence, type ImportRow, type ImportSummary } from './import-summary';

const OUTCOME_BADGE: Record<ImportRow['outcome'], string> = {
  import: 'badge status-succeeded',
  unchanged: 'badge',
  removed: 'badge status-pending',
  skipped: 'badge status-failed',
};

/** What an import did, or a dry run would do, with the approval count first. */
export function ImportResult({ title, summary }: { title: string; summary: ImportSummary }) {
  return (
    <section className="card" aria-label={title}>
      <h3>{title}</h3>
      <p className={summary.needingApproval > 0 ? 'warning' : 'success'} role="status">
        <strong>{approvalSentence(summary)}</strong>
      </p>
      {summary.rows.length === 0 ? (
        <p className="hint">The source has no tools.</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Tool</th>
              <th>Outcome</th>
              <th>What happens, or why not</th>
              <th>Warnings</th>
              <th>Approval</th>
            </tr>
          </thead>
          <tbody>
            {summary.rows.map((row) => (
              <tr key={`${row.outcome}:${row.name}`}>
                <td>
                  <code>{row.name}</code>
                </td>
                <td>
                  <span className={OUTCOME_BADGE[row.outcome]}>{row.outcome}</span>
                </td>
                <td>{row.detail}</td>
                <td>
                  {row.warnings.length === 0 ? null : (
                    <ul>
                      {row.warnings.map((warning) => (
                        <li key={warning}>{warning}</li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>{row.needsApproval ? 'every call' : null}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
