/** Node 20 lacks Promise.withResolvers (Node 22), which aws-local-stepfunctions uses. */
(Promise as { withResolvers?: unknown }).withResolvers ??= <T>() => {
  let resolve!: (value: T | PromiseLike<T>) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

export {};
