import { type PartnerClient, type PartnerResponse } from '@svc/partner-client';
import { type ApiCommand } from './parse-args';
import { readBodyFile } from './read-body-file';

export interface Execution {
  /** Set for POST commands: the idempotency-store entry holding the key and bytes. */
  operationId?: string;
  /** Start a new operation instead of replaying the stored one (`quote --fresh`). */
  forgetEarlier?: boolean;
  send(): Promise<PartnerResponse>;
}

/**
 * Maps a command to a client call. A POST's operation id is derived from what the user ran (command, resource,
 * file bytes) so that running the same command again, after a time-out for instance, resends the stored key and
 * bytes instead of starting a second operation; `--key` names the operation instead. The resource id is part of
 * the operation so one evidence file reported for two attempts never shares a key.
 */
export function executeCommand(client: PartnerClient, command: ApiCommand): Execution {
  switch (command.name) {
    case 'ping':
      return { send: () => client.ping() };
    case 'status':
      return { send: () => client.status(command.attemptId) };
    case 'quote': {
      const file = readBodyFile(command.file);
      const operationId = operationIdFor(command.key, `quote:${file.sha256}`);
      return {
        operationId,
        // --fresh forgets the earlier run's key, so this is a new quote (and the one a re-run replays).
        ...(command.fresh ? { forgetEarlier: true } : {}),
        send: () => client.quote(file.body, { operationId, idempotencyKey: command.key }),
      };
    }
    case 'prepare': {
      const file = command.file === undefined ? undefined : readBodyFile(command.file);
      // Without a file the client sends `{}`; `no-body` names that operation.
      const sha = file?.sha256 ?? 'no-body';
      const operationId = operationIdFor(command.key, `prepare:${command.intentSessionId}:${sha}`);
      return {
        operationId,
        send: () =>
          client.prepare(command.intentSessionId, file?.body, { operationId, idempotencyKey: command.key }),
      };
    }
    case 'submitted': {
      const file = readBodyFile(command.file);
      const operationId = operationIdFor(command.key, `submitted:${command.attemptId}:${file.sha256}`);
      return {
        operationId,
        send: () =>
          client.submitted(command.attemptId, file.body, { operationId, idempotencyKey: command.key }),
      };
    }
  }
}

function operationIdFor(key: string | undefined, derived: string): string {
  return key === undefined ? derived : `key:${key}`;
}
