"""What the benchmarks share: webpage (dist/ served with a byte meter, Chromium,
waiting for the page) and throttle (a phone-class CPU for a whole browser)."""
