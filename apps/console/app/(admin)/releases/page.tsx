'use client';

import Link from 'next/link';
import { routes } from '@toolgate/contract';
import { CursorPager, useCursorPages } from '../../components/cursor-pager';
import { Empty, Loaded } from '../../components/states';
import { ToolBadges } from '../../components/tool-badges';
import { useApi } from '../../components/use-api';

/** Tools per page: one screen of the table; a catalog of any size is reached with the pager. */
const RELEASES_PAGE_SIZE = 100;

export default function ReleasesPage() {
  const { cursor, cursors, setCursors } = useCursorPages();
  const tools = useApi(routes.listTools, { query: { limit: RELEASES_PAGE_SIZE, cursor } });
  return (
    <>
      <header className="page-header">
        <h1>Releases</h1>
        <p className="hint">
          Which version every tool serves; open one to move its canary, promote, roll back or
          deprecate.
        </p>
      </header>
      <Loaded state={tools} what="releases">
        {(page) =>
          page.items.length === 0 ? (
            <Empty title="No tools yet.">
              <p>
                Register a tool in the <Link href="/tools">catalog</Link> and publish a version
                first.
              </p>
            </Empty>
          ) : (
            <>
              <table className="table">
                <caption className="sr-only">Release state per tool</caption>
                <thead>
                  <tr>
                    <th scope="col">Tool</th>
                    <th scope="col">Stable</th>
                    <th scope="col">Canary</th>
                    <th scope="col">Share on canary</th>
                  </tr>
                </thead>
                <tbody>
                  {page.items.map((tool) => (
                    <tr key={tool.id}>
                      <td>
                        <Link href={`/tools/${tool.id}/release`}>{tool.name}</Link>{' '}
                        <ToolBadges tool={tool} />
                      </td>
                      <td>
                        {tool.release?.stable_version ?? (
                          <span className="hint">none — set one</span>
                        )}
                      </td>
                      <td>{tool.release?.canary_version ?? '—'}</td>
                      <td>
                        {tool.release?.canary_version ? (
                          <meter
                            min={0}
                            max={100}
                            value={tool.release.canary_percent}
                            aria-label={`${tool.name} canary share`}
                          >
                            {tool.release.canary_percent}%
                          </meter>
                        ) : null}{' '}
                        {tool.release?.canary_version ? `${tool.release.canary_percent}%` : ''}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <CursorPager
                cursors={cursors}
                setCursors={setCursors}
                nextCursor={page.next_cursor}
              />
            </>
          )
        }
      </Loaded>
    </>
  );
}
