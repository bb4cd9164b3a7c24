import { CfnOutput } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { handlerFunction } from './functions';
import { type Access, ROUTES, routeId } from './routes';

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
    this.httpApi = new apigw.HttpApi(this, 'HttpApi', { description: 'ToonZap /api routes' });
    const stage = this.httpApi.defaultStage?.node.defaultChild as apigw.CfnStage | undefined;
    stage?.addPropertyOverride('DefaultRouteSettings', { ThrottlingBurstLimit: 200, ThrottlingRateLimit: 100 });

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
