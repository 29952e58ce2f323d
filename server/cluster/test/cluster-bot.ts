/** The bot the cluster test runs on every node: echo turns, a trigger dialog, a timer, a slow sync call and a dataset query. */
export const clusterBot = {
  settings: { id: 'cluster', name: 'Cluster bot', startDialog: 'main', fallbackText: 'Sorry?' },
  dialogs: [
    {
      id: 'main',
      steps: [
        { id: 'ask', type: 'input', prompt: 'Say something.', saveTo: { variable: 'said' } },
        { id: 'echo', type: 'message', text: 'Echo: {{said}}' },
        { id: 'again', type: 'goto', dialog: 'main' },
      ],
    },
    { id: 'ping', steps: [{ id: 'p', type: 'message', text: 'Ping {{triggerData.n}}.' }] },
    {
      id: 'wait',
      steps: [
        { id: 'w', type: 'wait', duration: '10m', durationEnv: 'CLUSTER_BOT_WAIT', then: 'late' },
        { id: 'late', type: 'message', text: 'Time is up.' },
      ],
    },
    {
      id: 'slow',
      steps: [
        {
          id: 'call',
          type: 'integration',
          integration: 'http',
          service: 'upstream',
          params: { endpoint: 'slow', method: 'GET' },
          timeoutMs: 10_000,
          output: 'answer',
          mapping: 'body.word',
          onError: 'flag:callFailed',
        },
        { id: 'said', type: 'message', text: 'Answer: {{answer}}' },
      ],
    },
    {
      id: 'find',
      steps: [
        {
          id: 'q',
          type: 'integration',
          integration: 'queryDataset',
          params: { dataset: 'places', limit: 100 },
          output: 'found',
          mapping: '$count($)',
          onError: 'flag:findFailed',
        },
        { id: 'said', type: 'message', text: 'Found {{found}} places.' },
      ],
    },
  ],
  integrations: {
    services: { upstream: { baseUrl: 'http://127.0.0.1:9/', baseUrlEnv: 'UPSTREAM_URL' } },
    datasets: [{ name: 'places' }],
  },
};
