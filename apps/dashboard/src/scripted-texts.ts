/**
 * The streamed answer of the `chat` scenario.
 *
 * @example
 * scriptedModel([textTurn(CHAT_ANSWER)]);
 */
export const CHAT_ANSWER =
  'A cold Observable does nothing until it is subscribed: each subscription starts its own ' +
  'independent execution, so two subscribers to the same cold stream trigger two HTTP requests, ' +
  'two timers, two agent runs. That is why an rxagent run is cold. Building the Observable is free ' +
  'and safe, subscribing is what starts the model call, and unsubscribing cancels it: the request ' +
  'in flight is aborted and the running tools get an abort signal. When several consumers should ' +
  'share one run, share it explicitly with share() or withState(), which keeps one subscription ' +
  'and multicasts the events and the state fold to every listener.';

/**
 * The long streamed essay of the `long` scenario (about the throttling this dashboard does).
 *
 * @example
 * scriptedModel([textTurn(ESSAY)]);
 */
export const ESSAY =
  'Back-pressure is what a fast producer owes a slow consumer. A model can stream a hundred ' +
  'deltas a second, a browser tab repaints sixty times a second, and a person reads a few words ' +
  'a second; somewhere, values have to be dropped, merged or delayed. RxJS gives the choice back ' +
  'to the application. Lossy operators such as sampleTime, auditTime and throttleTime keep only ' +
  'the latest value in a window, which is exactly right for state: the newest snapshot replaces ' +
  'the ones before it and nothing of value is lost. Lossless operators such as bufferTime and ' +
  'concatMap keep every value and pay for it with memory or latency, which is right for events ' +
  'that each mean something, like a tool finishing or an approval being asked for.\n\n' +
  'This dashboard uses both. Snapshots of a run are coalesced within fifty milliseconds and only ' +
  'the latest is sent, but a change of phase or of the pending approvals flushes at once, so a ' +
  'card never skips from thinking to done without showing the tool that ran in between. The ' +
  'event log is lossless and small, because the noisy events, the deltas, are summarised by the ' +
  'snapshot instead. Server-Sent Events carry both over one connection per page, with comments ' +
  'as heartbeats so that idle proxies keep the stream open.';
