import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, Validations } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { REPO_ROOT } from '../domain/repo-paths';
import { ENTRY_METADATA_KEY } from '../domain/wiring';

export interface HandlerFunctionProps {
  /** Module path relative to the repository root, e.g. `lambdas/routes/status.ts`. */
  readonly entry: string;
  readonly environment: Record<string, string>;
  readonly memoryMb?: number;
  readonly timeoutSeconds?: number;
  /**
   * The handler decodes or encodes images with sharp (engine/output.ts): sharp is installed next to the bundle
   * for the Lambda platform (linux arm64) instead of being bundled, since its native binary cannot be.
   */
  readonly sharp?: boolean;
}

/** sharp's version as the repository pins it, so the Lambda gets the same codec as the engine and the tests. */
const SHARP_VERSION = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'node_modules', 'sharp', 'package.json'), 'utf8')) as {
    version: string;
  }
).version;

/** A Node.js Lambda bundled locally with esbuild (no Docker), tagged with its source module. */
export function handlerFunction(scope: Construct, id: string, props: HandlerFunctionProps): NodejsFunction {
  const fn = new NodejsFunction(scope, id, {
    entry: path.join(REPO_ROOT, props.entry),
    handler: 'handler',
    runtime: lambda.Runtime.NODEJS_22_X,
    architecture: lambda.Architecture.ARM_64,
    memorySize: props.memoryMb ?? 512,
    timeout: Duration.seconds(props.timeoutSeconds ?? 15),
    environment: { NODE_OPTIONS: '--enable-source-maps', ...props.environment },
    logGroup: new logs.LogGroup(scope, `${id}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
    // X-Ray: each invocation traced (Powertools' Tracer in the wrappers adds the AWS SDK calls as subsegments).
    tracing: lambda.Tracing.ACTIVE,
    bundling: {
      minify: true,
      sourceMap: true,
      target: 'node22',
      format: OutputFormat.CJS,
      // The Node.js 22 runtime ships AWS SDK v3; leaving it out keeps bundles small and cold starts short.
      externalModules: ['@aws-sdk/*', ...(props.sharp ? ['sharp'] : [])],
      forceDockerBundling: false,
      ...(props.sharp
        ? {
            commandHooks: {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (_in: string, out: string) => [
                // A package.json of its own, or npm would install into the nearest ancestor project (this repository).
                `cd "${out}" && echo '{"private":true}' > package.json && npm install --no-save --no-package-lock --os=linux --cpu=arm64 --libc=glibc sharp@${SHARP_VERSION}`,
              ],
            },
          }
        : {}),
    },
  });
  (fn.node.defaultChild as lambda.CfnFunction).addMetadata(ENTRY_METADATA_KEY, props.entry);
  Validations.of(fn.role!).acknowledge({
    id: 'AwsSolutions-IAM5[Resource::*]',
    reason:
      'Active tracing: xray:PutTraceSegments and xray:PutTelemetryRecords support no resource-level permissions. (Functions that call Rekognition add their own reason.)',
  });
  return fn;
}
