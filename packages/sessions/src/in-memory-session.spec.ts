import { InMemorySession } from '@rxagent/core';
import { describeSessionContract } from './session-contract.test.js';

// InMemorySession lives in core (no dependencies); the contract is checked here with the others.
let store = new InMemorySession('memory');
describeSessionContract(
  'InMemorySession',
  () => {
    // Every instance on "the same storage" is the same object: memory does not outlive it.
    return store;
  },
  () => {
    store = new InMemorySession('memory');
  },
);
