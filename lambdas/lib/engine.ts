import { InvokeEndpointCommand } from '@aws-sdk/client-sagemaker-runtime';
import { ENGINE_ERRORS, type EngineErrorName, METRICS } from '../../domain/wiring';
import { sagemaker } from './aws';
import { timed } from './observability';
import { settings } from './settings';

/** Request to the engine's model server (engine/server.ts documents the contract). S3 in, S3 out. */
export interface EngineRequest {
  input: { bucket: string; key: string };
  kind: 'image' | 'thumbnail';
  size?: number;
  watermark?: boolean;
  /** One decode, several renders: each style written to its own object. */
  outputs: { style: string; bucket: string; key: string }[];
}

export interface EngineResponse {
  outputs: { style: string; bucket: string; key: string; width: number; height: number }[];
  ms: number;
}

/** Errors the pipeline retries with backoff (throttling, model errors, timeouts), named so Step Functions can match them. */
export class EngineError extends Error {
  constructor(
    message: string,
    override readonly name: EngineErrorName,
  ) {
    super(message);
  }
}

export async function renderOnEngine(request: EngineRequest): Promise<EngineResponse> {
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
    return JSON.parse(new TextDecoder().decode(res.Body)) as EngineResponse;
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
