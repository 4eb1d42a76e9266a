'use client';

import { useId, useState, type FormEvent } from 'react';
import { routes, type Policy, type PolicyDecision, type Team } from '@toolgate/contract';
import { isRecord } from '@toolgate/toolir';
import { ApiError, apiRequest, describeError } from '../../lib/api';
import { policyErrorLines } from '../../lib/policy-error-lines';
import { NumberedTextarea } from './numbered-textarea';

export interface PolicyEditorProps {
  initialText: string;
  disabled?: boolean;
  onSaved?: (policy: Policy) => void;
  /**
   * The teams a sample call may belong to: a console user spans every team, so the test names
   * the team whose tools and active policy the call uses.
   */
  teams?: readonly Team[];
}

const EFFECT_LABEL: Record<PolicyDecision['effect'], string> = {
  allow: 'Allowed',
  deny: 'Denied',
  require_approval: 'Needs approval',
};

/** Edits Cedar policy text, tries it on a sample call, and saves it as a new revision. */
export function PolicyEditor({
  initialText,
  disabled = false,
  onSaved,
  teams = [],
}: PolicyEditorProps) {
  const id = useId();
  const [text, setText] = useState(initialText);
  const [pickedTeamId, setTeamId] = useState('');
  // The first team until one is picked (the list arrives after the first render).
  const teamId = pickedTeamId !== '' ? pickedTeamId : (teams[0]?.id ?? '');
  const [activate, setActivate] = useState(true);
  const [toolName, setToolName] = useState('');
  const [argumentsText, setArgumentsText] = useState('{}');
  const [textErrors, setTextErrors] = useState<string[]>([]);
  const [errorLines, setErrorLines] = useState<ReadonlySet<number>>(new Set());
  const [argumentsError, setArgumentsError] = useState<string | null>(null);
  const [toolError, setToolError] = useState<string | null>(null);
  const [teamError, setTeamError] = useState<string | null>(null);
  const [decision, setDecision] = useState<PolicyDecision | null>(null);
  const [testedText, setTestedText] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState<'test' | 'save' | null>(null);

  const showFailure = (failure: unknown) => {
    if (failure instanceof ApiError) {
      const onText = failure.issuesFor('text');
      setTextErrors(onText);
      setErrorLines(policyErrorLines(failure.problem));
      const onName = failure.issuesFor('name');
      const onTeam = failure.issuesFor('team_id');
      setToolError(onName.length > 0 ? onName.join('; ') : null);
      setTeamError(onTeam.length > 0 ? onTeam.join('; ') : null);
      setError(
        onText.length > 0 || onName.length > 0 || onTeam.length > 0 ? null : describeError(failure),
      );
    } else {
      setError(describeError(failure));
    }
  };

  const test = () => {
    setSaved(null);
    setError(null);
    setDecision(null);
    if (toolName.trim() === '') {
      setToolError('Name the tool of the sample call.');
      return;
    }
    setToolError(null);
    let parsed: unknown;
    try {
      parsed = JSON.parse(argumentsText);
    } catch (failure) {
      setArgumentsError(
        `Not valid JSON: ${failure instanceof Error ? failure.message : String(failure)}`,
      );
      return;
    }
    if (!isRecord(parsed)) {
      setArgumentsError('The arguments must be a JSON object, e.g. {"id": 1}.');
      return;
    }
    setArgumentsError(null);
    setBusy('test');
    apiRequest(routes.testPolicy, {
      body: {
        text,
        call: { name: toolName.trim(), arguments: parsed },
        ...(teamId === '' ? {} : { team_id: teamId }),
      },
    }).then(
      (result) => {
        setBusy(null);
        setTextErrors([]);
        setDecision(result);
        setTestedText(text);
      },
      (failure: unknown) => {
        setBusy(null);
        showFailure(failure);
      },
    );
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    setSaved(null);
    setError(null);
    setBusy('save');
    apiRequest(routes.createPolicy, { body: { text, activate } }).then(
      (policy) => {
        setBusy(null);
        setTextErrors([]);
        setSaved(`Saved revision ${policy.revision}${policy.active ? ' and made it active' : ''}.`);
        onSaved?.(policy);
      },
      (failure: unknown) => {
        setBusy(null);
        showFailure(failure);
      },
    );
  };

  return (
    <form className="form" onSubmit={save} aria-label="Policy editor">
      <div className="field">
        <label htmlFor={`${id}-text`}>Policy (Cedar)</label>
        <NumberedTextarea
          id={`${id}-text`}
          className="code"
          rows={14}
          spellCheck={false}
          value={text}
          errorLines={errorLines}
          disabled={disabled}
          aria-invalid={textErrors.length > 0}
          aria-describedby={textErrors.length > 0 ? `${id}-text-errors` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setErrorLines(new Set());
          }}
        />
        {textErrors.length > 0 ? (
          <ul id={`${id}-text-errors`} className="field-error" role="alert">
            {textErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        ) : null}
      </div>
      <fieldset className="sample">
        <legend>Test against a sample call</legend>
        {teams.length > 0 ? (
          <div className="field">
            <label htmlFor={`${id}-team`}>Team</label>
            <select
              id={`${id}-team`}
              value={teamId}
              aria-invalid={teamError !== null}
              onChange={(event) => setTeamId(event.target.value)}
            >
              {teams.map((team) => (
                <option key={team.id} value={team.id}>
                  {team.name}
                </option>
              ))}
            </select>
            {teamError ? <p className="field-error">{teamError}</p> : null}
          </div>
        ) : null}
        <div className="field">
          <label htmlFor={`${id}-tool`}>Tool name</label>
          <input
            id={`${id}-tool`}
            value={toolName}
            onChange={(event) => setToolName(event.target.value)}
            aria-invalid={toolError !== null}
          />
          {toolError ? <p className="field-error">{toolError}</p> : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-arguments`}>Arguments (JSON)</label>
          <textarea
            id={`${id}-arguments`}
            className="code"
            rows={4}
            spellCheck={false}
            value={argumentsText}
            aria-invalid={argumentsError !== null}
            onChange={(event) => setArgumentsText(event.target.value)}
          />
          {argumentsError ? <p className="field-error">{argumentsError}</p> : null}
        </div>
        <button type="button" onClick={test} disabled={busy !== null}>
          {busy === 'test' ? 'Testing…' : 'Test policy'}
        </button>
        {decision ? (
          <div className={`decision effect-${decision.effect}`} role="status">
            <strong>{EFFECT_LABEL[decision.effect]}</strong>
            {decision.matched_rule ? ` by ${decision.matched_rule}` : ' (default decision)'}
            {decision.reason ? ` — ${decision.reason}` : ''}
            {decision.evaluation_errors && decision.evaluation_errors.length > 0 ? (
              <ul className="field-error">
                {decision.evaluation_errors.map((failure) => (
                  <li key={failure.policy_id}>
                    {failure.policy_id}: {failure.message}
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </fieldset>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {saved ? (
        <p className="success" role="status">
          {saved}
        </p>
      ) : null}
      <div className="actions">
        <label className="inline">
          <input
            type="checkbox"
            checked={activate}
            onChange={(event) => setActivate(event.target.checked)}
            disabled={disabled}
          />{' '}
          Activate on save
        </label>
        {testedText !== text ? <span className="hint">Not tested since the last edit.</span> : null}
        <button type="submit" className="primary" disabled={disabled || busy !== null}>
          {busy === 'save' ? 'Saving…' : 'Save new revision'}
        </button>
      </div>
    </form>
  );
}
