import { FunctionCallingConfigMode, ThinkingLevel } from '@google/genai';
import { userMessage, type ChatRequest } from '@rxagent/core';
import { buildGoogleRequest } from './build-google-request.js';

const base: ChatRequest = { messages: [userMessage('Hi')] };
const read = {
  name: 'read',
  description: 'Read a file',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
};

describe('buildGoogleRequest', () => {
  it('always turns automatic function calling off and sends nothing unasked', () => {
    expect(buildGoogleRequest('gemini-2.5-flash', base)).toEqual({
      model: 'gemini-2.5-flash',
      contents: [{ role: 'user', parts: [{ text: 'Hi' }] }],
      config: { automaticFunctionCalling: { disable: true } },
    });
  });

  it('declares function tools with their JSON Schema, free-form tools as { input }, provider tools as they are', () => {
    const { config } = buildGoogleRequest('gemini-2.5-flash', {
      ...base,
      tools: [
        read,
        { name: 'sql', description: 'Run SQL', parameters: { type: 'string' } },
        {
          name: 'google_search',
          description: 'Search',
          parameters: {},
          providerTools: { google: { googleSearch: {} } },
        },
      ],
      toolChoice: { type: 'tool', name: 'read' },
    });
    expect(config?.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'read', description: 'Read a file', parametersJsonSchema: read.parameters },
          {
            name: 'sql',
            description: 'Run SQL',
            parametersJsonSchema: {
              type: 'object',
              properties: { input: { type: 'string' } },
              required: ['input'],
            },
          },
        ],
      },
      { googleSearch: {} },
    ]);
    expect(config?.toolConfig).toEqual({
      functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: ['read'] },
    });
  });

  it.each([
    ['auto', FunctionCallingConfigMode.AUTO],
    ['none', FunctionCallingConfigMode.NONE],
    ['required', FunctionCallingConfigMode.ANY],
  ] as const)('maps toolChoice %s to %s, only with function tools', (choice, mode) => {
    expect(
      buildGoogleRequest('m', { ...base, tools: [read], toolChoice: choice }).config?.toolConfig,
    ).toEqual({
      functionCallingConfig: { mode },
    });
    expect(buildGoogleRequest('m', { ...base, toolChoice: choice }).config?.toolConfig).toBeUndefined();
  });

  it('asks Gemini 3 for a thinking level and Gemini 2.x for a budget, with thoughts included', () => {
    expect(
      buildGoogleRequest('gemini-3-pro-preview', { ...base, thinking: 'high' }).config?.thinkingConfig,
    ).toEqual({
      thinkingLevel: ThinkingLevel.HIGH,
      includeThoughts: true,
    });
    expect(buildGoogleRequest('gemini-3-flash', { ...base, thinking: 'off' }).config?.thinkingConfig).toEqual(
      {
        thinkingLevel: ThinkingLevel.MINIMAL,
      },
    );
    expect(
      buildGoogleRequest('gemini-2.5-flash', { ...base, thinking: 'medium' }).config?.thinkingConfig,
    ).toEqual({
      thinkingBudget: 8192,
      includeThoughts: true,
    });
    expect(
      buildGoogleRequest('gemini-2.5-flash', { ...base, thinking: 'off' }).config?.thinkingConfig,
    ).toEqual({
      thinkingBudget: 0,
    });
  });

  it('maps limits, structured output and provider options (spread last)', () => {
    const { config } = buildGoogleRequest('m', {
      ...base,
      system: 'Be brief.',
      maxTokens: 100,
      temperature: 0.2,
      responseFormat: { type: 'json-schema', name: 'w', schema: { type: 'object' } },
      providerOptions: { google: { temperature: 0.5, safetySettings: [] } },
    });
    expect(config).toEqual({
      automaticFunctionCalling: { disable: true },
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      maxOutputTokens: 100,
      temperature: 0.5,
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object' },
      safetySettings: [],
    });
    expect(buildGoogleRequest('m', { ...base, responseFormat: { type: 'json' } }).config).toMatchObject({
      responseMimeType: 'application/json',
    });
  });
});
