// @vitest-environment happy-dom
import type { ConsoleRole } from '@toolgate/contract';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setCsrfToken } from '../../lib/api';
import { problem, respond, stubFetch } from '../../lib/testing/stub-fetch';
import { SessionProvider } from '../../components/session';
import { MCP_SYNC, OPENAPI_PREVIEW, TEAM } from './__fixtures__/imports';
import ImportsPage from './page';

const DOCUMENT = 'openapi: 3.0.3\ninfo: {title: Weather, version: 1.0.0}\npaths: {}\n';
const DOCUMENT_URL = 'https://specs.example.com/weather.yaml';
const teams = respond(['GET', '/v1/teams'], 200, { items: [TEAM] });
let restore: () => void = () => undefined;

function renderAs(role: ConsoleRole) {
  const user = {
    id: '5d3c1e2a-7d1e-4a55-9d8c-000000000001',
    email: 'ada@example.com',
    name: 'Ada',
    role,
  };
  render(
    <SessionProvider value={{ user, signOut: () => undefined }}>
      <ImportsPage />
    </SessionProvider>,
  );
}

function confirm(label: string) {
  fireEvent.click(screen.getByRole('button', { name: label }));
  fireEvent.click(
    within(screen.getByRole('group', { name: `Confirm: ${label}` })).getByRole('button', {
      name: `Yes, ${label.toLowerCase()}`,
    }),
  );
}

beforeEach(() => setCsrfToken('csrf-imports'));
afterEach(() => {
  cleanup();
  restore();
});

describe('the Imports page', () => {
  it('previews an OpenAPI document as a dry run, then imports exactly what it previewed', async () => {
    const network = stubFetch(teams, (request) => {
      if (request.method !== 'POST' || request.url !== '/v1/imports/openapi') return undefined;
      const dryRun = (request.body as { dry_run: boolean }).dry_run;
      return { status: 200, body: { ...OPENAPI_PREVIEW, dry_run: dryRun } };
    });
    restore = network.restore;
    renderAs('admin');
    fireEvent.change(await screen.findByLabelText('Document from'), { target: { value: 'text' } });
    fireEvent.change(screen.getByLabelText('Document (JSON or YAML)'), {
      target: { value: DOCUMENT },
    });
    fireEvent.change(screen.getAllByLabelText('Tool name prefix (optional)')[1]!, {
      target: { value: 'weather_' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));

    const preview = await screen.findByRole('region', { name: 'Preview (nothing written yet)' });
    expect(
      within(preview).getByText("1 of 2 tools will wait for a person's approval on every call."),
    ).toBeTruthy();
    expect(within(preview).getByText('multipart bodies are not supported')).toBeTruthy();
    expect(within(preview).getByText(/calls fail until WEATHER_KEY is stored/)).toBeTruthy();

    confirm('Import');
    const imported = await screen.findByRole('region', { name: 'Imported' });
    expect(within(imported).getByText('deleteCity')).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Preview (nothing written yet)' })).toBeNull();

    const posts = network.sent.filter((request) => request.method === 'POST');
    const body = {
      document: DOCUMENT,
      team_id: TEAM.id,
      name_prefix: 'weather_',
      publish: false,
    };
    expect(posts.map((request) => request.body)).toEqual([
      { ...body, dry_run: true },
      { ...body, dry_run: false },
    ]);
    expect(posts[1]?.headers['x-csrf-token']).toBe('csrf-imports');
  });

  it('reads a document from its URL, and says what to do when the browser cannot read it', async () => {
    const network = stubFetch(
      teams,
      respond(['GET', DOCUMENT_URL], 404),
      respond(['POST', '/v1/imports/openapi'], 200, OPENAPI_PREVIEW),
    );
    restore = network.restore;
    renderAs('admin');
    fireEvent.change(await screen.findByLabelText('Document URL'), {
      target: { value: DOCUMENT_URL },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByRole('alert')).textContent).toBe(`${DOCUMENT_URL} answered 404.`);

    fireEvent.change(screen.getByLabelText('Document URL'), {
      target: { value: 'https://unreachable.example.com/openapi.json' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/paste the document instead/);
    expect(network.sent.some((request) => request.url === '/v1/imports/openapi')).toBe(false);
  });

  it('imports an MCP server with its credential and behavior defaults and shows the approval count', async () => {
    const network = stubFetch(teams, respond(['POST', '/v1/imports/mcp-servers'], 201, MCP_SYNC));
    restore = network.restore;
    renderAs('admin');
    fireEvent.change(await screen.findByLabelText('Server name'), { target: { value: 'wiki' } });
    fireEvent.change(screen.getByLabelText('Server URL'), {
      target: { value: 'https://wiki.example.com/mcp' },
    });
    fireEvent.change(screen.getByLabelText('Credential secret name (optional)'), {
      target: { value: 'WIKI_TOKEN' },
    });
    fireEvent.change(screen.getByLabelText('Destructive'), { target: { value: 'no' } });
    fireEvent.change(screen.getByLabelText('Open world'), { target: { value: 'yes' } });
    confirm('Import server');

    const result = await screen.findByRole('region', { name: 'Imported from wiki' });
    expect(
      within(result).getByText("1 of 2 tools will wait for a person's approval on every call."),
    ).toBeTruthy();
    expect(
      within(result).getByText('outputSchema: rewritten from JSON Schema draft-07 to 2020-12'),
    ).toBeTruthy();
    expect(within(result).getByText('requires task-augmented execution')).toBeTruthy();
    expect(network.sent.find((request) => request.method === 'POST')?.body).toEqual({
      name: 'wiki',
      url: 'https://wiki.example.com/mcp',
      team_id: TEAM.id,
      publish: false,
      defaults: { destructive: false, open_world: true },
      auth: { header: 'Authorization', secret_ref: 'WIKI_TOKEN', prefix: 'Bearer ' },
    });
  });

  it("shows the API's problem as a message in the page and keeps the form", async () => {
    const network = stubFetch(
      teams,
      respond(
        ['POST', '/v1/imports/mcp-servers'],
        502,
        problem(502, 'The MCP server at https://wiki.example.com/mcp did not answer.'),
      ),
    );
    restore = network.restore;
    renderAs('admin');
    fireEvent.change(await screen.findByLabelText('Server name'), { target: { value: 'wiki' } });
    fireEvent.change(screen.getByLabelText('Server URL'), {
      target: { value: 'https://wiki.example.com/mcp' },
    });
    confirm('Import server');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The MCP server at https://wiki.example.com/mcp did not answer.',
    );
    expect(screen.getByLabelText<HTMLInputElement>('Server name').value).toBe('wiki');
  });

  it('tells other roles that only admins import, without asking for teams', () => {
    const network = stubFetch();
    restore = network.restore;
    renderAs('viewer');
    expect(screen.getByText('Only admins import tools.')).toBeTruthy();
    expect(network.sent).toEqual([]);
  });
});
