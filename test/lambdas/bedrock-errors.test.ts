import { GENERATIVE_ERRORS } from '../../domain/wiring';
import { classifyModelError } from '../../lambdas/lib/bedrock';
import { notSubscribed, onDemandNotSupported } from '../../local/bedrock/gate';

/**
 * Every InvokeModel error Bedrock documents, by what it means: the photo (refused: refund that item, remember it),
 * the account (misconfigured: alarm, the item waits), or chance (throttled / unavailable: retried soon).
 */
describe('Bedrock error classification', () => {
  const { throttled, unavailable, refused, misconfigured } = GENERATIVE_ERRORS;
  test.each([
    ['ThrottlingException', 'Too many requests, please wait before trying again.', throttled],
    ['ServiceQuotaExceededException', 'Your request exceeds the service quota for your account.', throttled],
    ['ServiceUnavailableException', 'Service is unavailable.', throttled],
    ['TooManyRequestsException', 'Rate exceeded', throttled],
    ['InternalServerException', 'Internal server error', unavailable],
    ['ModelTimeoutException', 'Model timed out', unavailable],
    ['ModelErrorException', 'The model failed', unavailable],
    ['TimeoutError', 'socket hang up', unavailable],
    ['AccessDeniedException', 'You do not have access to this model', misconfigured],
    ['AccessDeniedException', notSubscribed().message, misconfigured],
    ['ResourceNotFoundException', 'Model not found', misconfigured],
    ['ModelNotReadyException', 'The model is not ready to serve inference requests', misconfigured],
    ['UnrecognizedClientException', 'The security token included in the request is invalid.', misconfigured],
    [
      'ValidationException',
      onDemandNotSupported('stability.stable-image-control-structure-v1:0').message,
      misconfigured,
    ],
    ['ValidationException', 'The provided model identifier is invalid.', misconfigured],
    ['ValidationException', "You don't have access to the model with the specified model ID.", misconfigured],
    ['ValidationException', 'Invalid image: aspect ratio must be between 1:2.5 and 2.5:1 (got 600x200)', refused],
    ['ValidationException', 'Invalid image: every side must be at least 64 pixels (got 63x128)', refused],
    ['ValidationException', 'Malformed input request: #/seed: must be an integer between 0 and 4294967294', refused],
  ])('%s (%s) → %s', (name, message, expected) => {
    expect(classifyModelError(name, message)).toBe(expected);
  });
});
