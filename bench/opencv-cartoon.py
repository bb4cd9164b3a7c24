"""Native OpenCV's classic cartoon, the engine bench's anchor (bench/engine.ts runs it; Debian python3-opencv).

usage: python3 bench/opencv-cartoon.py RGB_FILE WIDTH HEIGHT WARMUP RUNS
RGB_FILE holds the pixels the engine's styles are timed on (8-bit RGB, row-major). One thread, as the engine's
styles each run on one. Prints one JSON line: OpenCV's version, its thread count, and each timed run's wall and
CPU milliseconds. With RUNS 0 it then serves: each line read from stdin is a number of runs, answered with one
such JSON line (the bench times the anchor beside each style, in turns, so both see the machine as it is then).

The pipeline: 2x pyrDown, 7 bilateral passes (d 9, sigma colour 9, sigma space 7), 2x pyrUp; grey, median 7,
adaptive mean threshold (block 9, C 2); the colour ANDed with the edges.
"""
import json
import sys
import time

import cv2
import numpy as np

cv2.setNumThreads(1)


def cartoon(src):
    h, w = src.shape[:2]
    half = cv2.pyrDown(src)
    small = cv2.pyrDown(half)
    for _ in range(7):
        small = cv2.bilateralFilter(small, 9, 9, 7)
    up = cv2.pyrUp(cv2.pyrUp(small, dstsize=(half.shape[1], half.shape[0])), dstsize=(w, h))
    grey = cv2.cvtColor(src, cv2.COLOR_RGB2GRAY)
    edges = cv2.adaptiveThreshold(cv2.medianBlur(grey, 7), 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 9, 2)
    return cv2.bitwise_and(up, cv2.cvtColor(edges, cv2.COLOR_GRAY2RGB))


def timed(src, runs):
    wall, cpu = [], []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        cartoon(src)
        wall.append((time.perf_counter() - t) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    return {"version": cv2.__version__, "threads": cv2.getNumThreads(), "wall_ms": wall, "cpu_ms": cpu}


def main():
    path, width, height, warmup, runs = sys.argv[1], *map(int, sys.argv[2:6])
    src = np.fromfile(path, dtype=np.uint8).reshape(height, width, 3)
    for _ in range(warmup):
        cartoon(src)
    print(json.dumps(timed(src, runs)), flush=True)
    if runs == 0:
        for line in sys.stdin:
            print(json.dumps(timed(src, int(line))), flush=True)


main()
