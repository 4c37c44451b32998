import { parseDemoArgs, UsageError } from './parse-args.js';

describe('--timeline and --trace', () => {
  it('reads --timeline and --trace otlp=<url>', () => {
    const args = parseDemoArgs(['--timeline', '--trace', 'otlp=http://127.0.0.1:4318/v1/traces']);
    expect(args.timeline).toBe(true);
    expect(args.traceOtlpUrl).toBe('http://127.0.0.1:4318/v1/traces');
    expect(parseDemoArgs([]).traceOtlpUrl).toBeUndefined();
  });

  it.each(['http://127.0.0.1:4318', 'otlp=', 'otlp=ftp://x', 'jaeger=http://x'])(
    'refuses --trace %s, saying what it takes',
    (value) => {
      expect(() => parseDemoArgs(['--trace', value])).toThrow(UsageError);
      expect(() => parseDemoArgs(['--trace', value])).toThrow(
        `--trace must be otlp=<http(s) URL>, e.g. otlp=http://127.0.0.1:4318/v1/traces; got "${value}".`,
      );
    },
  );
});
