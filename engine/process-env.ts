/**
 * Environment the engine's process is started with (engine/Dockerfile sets each as ENV; `npm run bench engine`
 * starts its child with them): what only takes effect when set before the process starts.
 *
 * MALLOC_ARENA_MAX: glibc gives each thread that allocates its own malloc arena, and the engine has many (the
 * style workers, the analysis threads, libuv's pool and libvips' threads decoding and encoding for sharp); freed
 * memory stays fragmented across them. Measured on the bundled engine (12 MP analysis, 21 preview batches, three
 * 12 MP → 2048 px `3d` renders): peak RSS 588–598 MB with glibc's default (8 × cores), 474–488 MB with 2, at the
 * same CPU time per batch.
 */
export const ENGINE_PROCESS_ENV = { MALLOC_ARENA_MAX: '2' } as const;
