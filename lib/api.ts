import { CfnOutput } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type Access, ROUTES, routeId } from '../domain/api-routes';
import { handlerFunction } from './functions';

export interface ApiProps {
  readonly environment: Record<string, string>;
  /** Turns a route's declared access into IAM grants on the function. */
  readonly grant: (fn: lambda.Function, access: readonly Access[]) => void;
}

/** HTTP API with one Lambda per route of the route table. */
export class Api extends Construct {
  readonly httpApi: apigw.HttpApi;
  readonly functions: Record<string, lambda.Function> = {};

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', {
      description: 'ToonZap /api routes',
      createDefaultStage: false,
    });
    // The stage-wide throttle caps the whole API; per-client limits are the WAF's (lib/edge.ts). Every request is
    // access-logged (request id, route, status, latency, source IP; no bodies, no headers).
    new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: { burstLimit: 200, rateLimit: 100 },
      accessLogSettings: {
        destination: new apigw.LogGroupLogDestination(
          new logs.LogGroup(this, 'AccessLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        ),
        format: apigateway.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
            sourceIp: '$context.identity.sourceIp',
            time: '$context.requestTime',
          }),
        ),
      },
    });

    for (const route of ROUTES) {
      const id = routeId(route);
      const fn = handlerFunction(this, id, {
        entry: `lambdas/routes/${route.handler}.ts`,
        environment: props.environment,
        memoryMb: route.memoryMb,
        timeoutSeconds: route.timeoutSeconds,
      });
      props.grant(fn, route.access);
      this.httpApi.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${id}Integration`, fn),
      });
      this.functions[id] = fn;
    }
    new CfnOutput(scope, 'ApiUrl', { value: this.httpApi.apiEndpoint, description: 'HTTP API base URL' });
  }
}
