import './polyfills';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { StateMachine } from 'aws-local-stepfunctions';
import { writeFileDurably } from './durable-file';
import type { LambdaHost } from './lambda-host';
import { AwsError, serve } from './serve';
import type { LocalStateMachine } from './template';

type Status = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';
interface Execution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  status: Status;
  startDate: number;
  stopDate?: number;
  input: string;
  output?: string;
  error?: string;
  cause?: string;
}

type Json = any;

/** Task states whose resource is a Lambda function of the template, by state name (names are unique in a machine). */
function taskHandlers(definition: Json, lambdas: LambdaHost): Record<string, (input: Json) => Promise<Json>> {
  const out: Record<string, (input: Json) => Promise<Json>> = {};
  const visit = (states: Record<string, Json>) => {
    for (const [name, state] of Object.entries(states)) {
      // The stack's tasks name their function's ARN as the Resource (Lambda's optimized integration).
      if (state.Type === 'Task') {
        const fn = lambdas.byArn(state.Resource);
        if (!fn) throw new Error(`Task state "${name}" uses ${state.Resource}, which the local runtime cannot run`);
        out[name] = (input) => lambdas.invoke(fn.logicalId, input);
      }
      if (state.Type === 'Map') visit(state.ItemProcessor.States);
      if (state.Type === 'Parallel') for (const b of state.Branches) visit(b.States);
    }
  };
  visit(definition.States);
  return out;
}

/**
 * A local AWS Step Functions endpoint (JSON 1.0 protocol): StartExecution, DescribeExecution, StopExecution and
 * ListExecutions for the template's state machines, run by aws-local-stepfunctions with the Lambda tasks mapped
 * to the same handler code. Executions are kept in a file, written durably before StartExecution answers and on every
 * status change; any still running when the process stopped (or died) is started again from its input on the next
 * start (tasks are idempotent), so no order or job is lost to a restart.
 */
export async function startStepFunctions(opts: {
  dataDir: string;
  machines: LocalStateMachine[];
  lambdas: LambdaHost;
}) {
  const file = path.join(opts.dataDir, 'stepfunctions', 'executions.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const executions = new Map<string, Execution>(
    fs.existsSync(file)
      ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Execution[]).map((e) => [e.executionArn, e])
      : [],
  );
  const machines = new Map(
    opts.machines.map((m) => [
      m.arn,
      {
        ...m,
        runner: new StateMachine(m.definition, { validationOptions: { checkArn: false, checkPaths: false } }),
        handlers: taskHandlers(m.definition, opts.lambdas),
      },
    ]),
  );
  const running = new Map<string, { abort: () => void; done: Promise<void> }>();
  // After close, unfinished executions stay RUNNING on disk (as after a crash) and are resumed on the next start.
  let closed = false;

  // Every change is on disk before anyone hears of it: StartExecution answers only after its execution is stored,
  // so an acknowledged execution can never exist only in memory (a crash right after the answer loses nothing).
  const save = () => writeFileDurably(file, JSON.stringify([...executions.values()]));

  function run(execution: Execution): void {
    const machine = machines.get(execution.stateMachineArn)!;
    const handle = machine.runner.run(JSON.parse(execution.input), {
      overrides: { taskResourceLocalHandlers: machine.handlers },
      context: {
        Execution: {
          Id: execution.executionArn,
          Name: execution.name,
          Input: JSON.parse(execution.input),
          StartTime: new Date(execution.startDate * 1000).toISOString(),
        },
        StateMachine: { Id: machine.arn, Name: machine.name },
      },
    });
    const done = handle.result
      .then(
        (output: unknown) => {
          if (!closed && execution.status === 'RUNNING')
            Object.assign(execution, { status: 'SUCCEEDED', output: JSON.stringify(output) });
        },
        (err: Error & { error?: string; cause?: unknown }) => {
          // Closed: stays RUNNING on disk, to be resumed. Already ABORTED: StopExecution recorded it.
          if (closed || execution.status !== 'RUNNING') return;
          const { name } = err;
          const status =
            name === 'ExecutionAbortedError' ? 'ABORTED' : name === 'ExecutionTimeoutError' ? 'TIMED_OUT' : 'FAILED';
          const cause = err.cause === undefined ? err.message : String(err.cause);
          Object.assign(execution, { status, error: err.error ?? name, cause });
        },
      )
      .then(() => {
        running.delete(execution.executionArn);
        if (closed) return;
        execution.stopDate ??= Date.now() / 1000;
        save();
      });
    running.set(execution.executionArn, { abort: handle.abort, done });
  }

  const ops: Record<string, (body: Json) => Json> = {
    StartExecution(body) {
      const machine = machines.get(body.stateMachineArn);
      if (!machine)
        throw new AwsError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${body.stateMachineArn}'`);
      const name = body.name ?? crypto.randomUUID();
      const executionArn = `${machine.arn.replace(':stateMachine:', ':execution:')}:${name}`;
      const input = body.input ?? '{}';
      const existing = executions.get(executionArn);
      if (existing) {
        if (existing.status === 'RUNNING' && existing.input === input)
          return { executionArn, startDate: existing.startDate };
        throw new AwsError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
      }
      const execution: Execution = {
        executionArn,
        stateMachineArn: machine.arn,
        name,
        status: 'RUNNING',
        startDate: Date.now() / 1000,
        input,
      };
      executions.set(executionArn, execution);
      try {
        save();
      } catch (err) {
        executions.delete(executionArn);
        throw new AwsError('ServiceUnavailable', `Execution could not be stored: ${(err as Error).message}`);
      }
      run(execution);
      return { executionArn, startDate: execution.startDate };
    },
    DescribeExecution(body) {
      const e = executions.get(body.executionArn);
      if (!e) throw new AwsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${body.executionArn}'`);
      return e;
    },
    StopExecution(body) {
      const e = executions.get(body.executionArn);
      if (!e) throw new AwsError('ExecutionDoesNotExist', `Execution Does Not Exist: '${body.executionArn}'`);
      const stopDate = Date.now() / 1000;
      // As in Step Functions, the execution is ABORTED when StopExecution answers (its tasks may still be winding down).
      if (e.status === 'RUNNING') {
        Object.assign(e, { status: 'ABORTED', stopDate, error: body.error, cause: body.cause });
        save();
      }
      running.get(e.executionArn)?.abort();
      return { stopDate };
    },
    ListExecutions(body) {
      const list = [...executions.values()].filter(
        (e) => e.stateMachineArn === body.stateMachineArn && (!body.statusFilter || e.status === body.statusFilter),
      );
      return { executions: list.map(({ input: _i, output: _o, error: _e, cause: _c, ...summary }) => summary) };
    },
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const op = String(req.headers['x-amz-target'] ?? '').split('.')[1] ?? '';
    const reply = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(value));
    };
    try {
      const handler = ops[op];
      if (!handler)
        throw new AwsError('UnknownOperationException', `Operation ${op} is not supported by the local Step Functions`);
      reply(200, handler(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}')));
    } catch (err) {
      const type = err instanceof AwsError ? err.type : 'InvalidArn';
      reply(400, { __type: `com.amazonaws.swf.service.v2.model#${type}`, message: (err as Error).message });
    }
  });
  const { url, close } = await serve(server);

  // Resume what a previous run left unfinished.
  const resumed: string[] = [];
  for (const e of executions.values()) {
    if (e.status === 'RUNNING' && machines.has(e.stateMachineArn)) {
      run(e);
      resumed.push(e.name);
    }
  }

  return {
    url,
    resumed,
    /** Resolves when every running execution has finished (tests). */
    async idle() {
      while (running.size) await Promise.all([...running.values()].map((r) => r.done));
    },
    async close() {
      save();
      closed = true;
      for (const r of running.values()) r.abort();
      await close();
    },
  };
}
