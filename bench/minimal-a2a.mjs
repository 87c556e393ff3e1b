// Baseline for the A2A row: the A2A SDK's own server (its express JSON-RPC handler, 0.3 wire via
// legacy compat) with an in-memory task store and an executor that answers like ours: a task,
// one artifact, completed. Started in the same bench run.
import express from 'express';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

const url = `http://127.0.0.1:${process.env.PORT}/a2a`;
const card = {
  name: 'minimal',
  description: 'SDK baseline',
  version: '1.0.0',
  supportedInterfaces: ['1.0', '0.3'].map((protocolVersion) => ({ url, protocolBinding: 'JSONRPC', tenant: '', protocolVersion })),
  provider: undefined,
  capabilities: { streaming: true, pushNotifications: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'ping', name: 'ping', description: 'ok', tags: ['ping'], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
  signatures: [],
};

const text = (value) => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: 'text/plain' });
const executor = {
  async execute(rc, bus) {
    const { taskId, contextId } = rc;
    bus.publish(
      AgentEvent.task({
        id: taskId,
        contextId,
        status: { state: 2, message: undefined, timestamp: new Date().toISOString() },
        artifacts: [],
        history: [rc.userMessage],
        metadata: {},
      }),
    );
    bus.publish(
      AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: { artifactId: 'result', name: 'ping', description: '', parts: [text('ok')], metadata: undefined, extensions: [] },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }),
    );
    bus.publish(
      AgentEvent.statusUpdate({ taskId, contextId, status: { state: 3, message: undefined, timestamp: new Date().toISOString() }, metadata: undefined }),
    );
  },
  async cancelTask() {},
};

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
const app = express();
app.use('/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } }));
app.use('/a2a', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
app.listen(Number(process.env.PORT), '127.0.0.1');
