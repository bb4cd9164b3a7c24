import {
  DescribeExecutionCommand,
  ExecutionAlreadyExists,
  StartExecutionCommand,
  StopExecutionCommand,
} from '@aws-sdk/client-sfn';
import { sfn } from './aws';

/** Starts a state machine execution; a name already used means it was started before, which is fine (idempotent). */
export async function startExecution(stateMachineArn: string, name: string, input: unknown): Promise<string> {
  try {
    const res = await sfn().send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
    return res.executionArn!;
  } catch (err) {
    if (err instanceof ExecutionAlreadyExists || (err as Error).name === 'ExecutionAlreadyExists') {
      return executionArn(stateMachineArn, name);
    }
    throw err;
  }
}

/** The ARN of a machine's execution with this name (Step Functions derives it the same way). */
export const executionArn = (stateMachineArn: string, name: string) =>
  `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;

export interface ExecutionState {
  /** Step Functions' status, or MISSING when no such execution exists. */
  status: 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED' | 'PENDING_REDRIVE' | 'MISSING';
  error?: string;
  cause?: string;
  startDate?: Date;
}

export async function executionStatus(arn: string): Promise<ExecutionState> {
  try {
    const res = await sfn().send(new DescribeExecutionCommand({ executionArn: arn }));
    return {
      status: (res.status ?? 'RUNNING') as ExecutionState['status'],
      error: res.error,
      cause: res.cause,
      startDate: res.startDate,
    };
  } catch (err) {
    if ((err as Error).name === 'ExecutionDoesNotExist') return { status: 'MISSING' };
    throw err;
  }
}

/** Stops a running execution (no-op answer from Step Functions when it already ended). */
export async function stopExecution(arn: string, cause: string): Promise<void> {
  await sfn().send(new StopExecutionCommand({ executionArn: arn, error: 'Reconciled', cause: cause.slice(0, 32_000) }));
}
