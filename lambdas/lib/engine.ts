import { InvokeEndpointCommand } from '@aws-sdk/client-sagemaker-runtime';
import type { z } from 'zod';
import {
  type EngineBatchInput,
  type EngineBatchResponse,
  type EngineCheckRequest,
  type EngineCheckResponse,
  engineBatchRequest,
  engineBatchResponse,
  engineCheckRequest,
  engineCheckResponse,
  parseWith,
} from '../../domain/engine-request';
import { ENGINE_ERRORS, type EngineErrorName, METRICS } from '../../domain/wiring';
import { sagemaker } from './aws';
import { timed } from './observability';
import { settings } from './settings';

/** Errors the pipeline retries with backoff (throttling, model errors, timeouts), named so Step Functions can match them. */
export class EngineError extends Error {
  constructor(
    message: string,
    override readonly name: EngineErrorName,
  ) {
    super(message);
  }
}

/**
 * One engine call (engine/server.ts): the request is checked against the schema the engine parses with before it
 * is sent, so a malformed one fails here with its reason instead of as a model error; the answer is checked too.
 */
export async function renderOnEngine(input: EngineBatchInput): Promise<EngineBatchResponse> {
  return callEngine(parseWith(engineBatchRequest, input), engineBatchResponse);
}

/**
 * The engine's quality gate, faces included, on an image stored at `output` against its photo at `input` (the
 * `check` operation): the verdict, whether it passed or not.
 */
export async function checkOnEngine(input: Omit<EngineCheckRequest, 'op'>): Promise<EngineCheckResponse> {
  return callEngine(parseWith(engineCheckRequest, { op: 'check', ...input }), engineCheckResponse);
}

async function callEngine<T extends z.ZodType>(request: unknown, response: T): Promise<z.output<T>> {
  try {
    const res = await timed(METRICS.engineLatency, METRICS.engineErrors, () =>
      sagemaker().send(
        new InvokeEndpointCommand({
          EndpointName: settings.engineEndpoint,
          ContentType: 'application/json',
          Accept: 'application/json',
          Body: new TextEncoder().encode(JSON.stringify(request)),
        }),
      ),
    );
    return parseWith(response, JSON.parse(new TextDecoder().decode(res.Body)));
  } catch (err) {
    const name = (err as Error).name;
    const message = (err as Error).message;
    if (name === 'ThrottlingException' || name === 'ServiceUnavailable')
      throw new EngineError(message, ENGINE_ERRORS.throttled);
    if (name === 'ModelError' || name === 'ModelNotReadyException')
      throw new EngineError(message, ENGINE_ERRORS.modelError);
    throw new EngineError(`${name}: ${message}`, ENGINE_ERRORS.unavailable);
  }
}
