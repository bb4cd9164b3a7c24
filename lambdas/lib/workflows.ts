import { DescribeExecutionCommand, ExecutionAlreadyExists, StartExecutionCommand } from '@aws-sdk/client-sfn';
import { sfn } from './aws';

/** Starts a state machine execution; a name already used means it was started before, which is fine (idempotent). */
export async function startExecution(stateMachineArn: string, name: string, input: unknown): Promise<string> {
  try {
    const res = await sfn().send(new StartExecutionCommand({ stateMachineArn, name, input: JSON.stringify(input) }));
    return res.executionArn!;
  } catch (err) {
    if (err instanceof ExecutionAlreadyExists || (err as Error).name === 'ExecutionAlreadyExists') {
      return `${stateMachineArn.replace(':stateMachine:', ':execution:')}:${name}`;
    }
    throw err;
  }
}

export async function executionStatus(executionArn: string): Promise<{ status: string; error?: string; cause?: string }> {
  const res = await sfn().send(new DescribeExecutionCommand({ executionArn }));
  return { status: res.status ?? 'UNKNOWN', error: res.error, cause: res.cause };
}
