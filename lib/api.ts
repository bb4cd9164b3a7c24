import { CfnOutput } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { type Access, ROUTES, type RouteDef, routeId } from '../domain/api-routes';
import { handlerFunction } from './functions';

/** A token bucket: requests per second, and how many may come at once. */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/**
 * Routes without a throttle of their own: every read a page makes, and the job polls (a tab polls every 2 s).
 * The stage's figure from before per-route throttles, which no route ever came near.
 */
export const DEFAULT_THROTTLE: Throttle = { rateLimit: 100, burstLimit: 200 };

/**
 * Each of these routes has a token bucket of its own (the stage's route settings), so no other route's traffic can
 * use it up. Paid orders first:
 *  - the Stripe webhook: 50/s, burst 100. Stripe sends a few events per paid order; 50 orders a second is far past
 *    any day this shop will see, so only someone posting unsigned events could fill it, and the WAF's per-client
 *    limit holds one address to 2000 requests in 5 minutes (about 7/s): filling it takes 8 addresses the whole time.
 *    Even then no order is lost: the reconciler finds completed Checkout sessions from Stripe every 5 minutes.
 *  - the order status page (GET /api/generation/{id}): 100/s, burst 200; a customer's tab polls every 2 s, so
 *    200 customers watching their orders at once.
 *  - checkout: 20/s, burst 40; it starts a Stripe session (a paid order to come), apart from the anonymous work.
 * The anonymous work routes (uploads, moderation, previews, sign-ups, erasure): 10/s, burst 20 each. The engine
 * serves `engineMaxConcurrency` (10) renders at a time of a few seconds each, so more work per second than this only
 * queues or is refused further on; these buckets keep a flood of anonymous work from reaching the account's
 * API Gateway quota (10,000/s shared by every API in the Region) that the routes above also draw on.
 */
export function routeThrottle(route: RouteDef): Throttle | undefined {
  if (route.handler === 'stripe-webhook') return { rateLimit: 50, burstLimit: 100 };
  if (route.handler === 'get-generation') return { rateLimit: 100, burstLimit: 200 };
  if (route.handler === 'checkout') return { rateLimit: 20, burstLimit: 40 };
  if (route.startsWork) return { rateLimit: 10, burstLimit: 20 };
  return undefined;
}

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
    // Throttles per route (routeThrottle), the stage's default for the rest; per-client limits are the WAF's
    // (lib/edge.ts). Every request is access-logged (request id, route, status, latency, source IP; no bodies, no
    // headers).
    const stage = new apigw.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: DEFAULT_THROTTLE,
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

    // CloudFormation's RouteSettings is a JSON map (route key → settings), passed as written: its own key casing.
    const routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> = {};
    const cfnStage = stage.node.defaultChild as apigw.CfnStage;
    for (const route of ROUTES) {
      const id = routeId(route);
      const fn = handlerFunction(this, id, {
        entry: `lambdas/routes/${route.handler}.ts`,
        environment: props.environment,
        memoryMb: route.memoryMb,
        timeoutSeconds: route.timeoutSeconds,
      });
      props.grant(fn, route.access);
      const [httpRoute] = this.httpApi.addRoutes({
        path: route.path,
        methods: [apigw.HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${id}Integration`, fn),
      });
      const throttle = routeThrottle(route);
      if (throttle) {
        routeSettings[`${route.method} ${route.path}`] = {
          ThrottlingRateLimit: throttle.rateLimit,
          ThrottlingBurstLimit: throttle.burstLimit,
        };
        // A route setting names a route key that must exist when the stage is updated.
        cfnStage.node.addDependency(httpRoute);
      }
      this.functions[id] = fn;
    }
    cfnStage.routeSettings = routeSettings;
    new CfnOutput(scope, 'ApiUrl', { value: this.httpApi.apiEndpoint, description: 'HTTP API base URL' });
  }
}
