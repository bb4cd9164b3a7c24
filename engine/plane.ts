/**
 * One channel of a planar float raster, values in [0, 1]. Its own module so the blur filters below the raster
 * (engine/raster.ts resizes with them) can name it without importing the raster back.
 */
export type Plane = Float32Array;
