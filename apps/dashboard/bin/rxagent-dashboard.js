#!/usr/bin/env node
// The rxagent-dashboard command: the built server (dist/main.js). A file of its own, so the
// bin exists before the first build (pnpm links it at install time).
import '../dist/main.js';
