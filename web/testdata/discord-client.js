// Plays the Discord client around an Activity, for the browser test: it
// opens the Activity's page in an iframe with the query Discord adds, and
// answers the Embedded App SDK's postMessage protocol (HANDSHAKE → READY,
// AUTHORIZE → a code the test minted for this user, AUTHENTICATE, and an
// empty answer to anything else). It is served beside the page, on the
// same origin, which the SDK accepts messages from.
const params = new URLSearchParams(location.search);
const frame = document.getElementById('activity');
const frameId = 'test-frame-' + Math.random().toString(16).slice(2);
window.sdkLog = [];

window.addEventListener('message', (e) => {
  if (e.source !== frame.contentWindow || !Array.isArray(e.data)) return;
  const [op, data] = e.data;
  window.sdkLog.push(op === 0 ? 'HANDSHAKE' : (data && data.cmd) || String(op));
  const reply = (payload) => frame.contentWindow.postMessage([1, payload], location.origin);
  if (op === 0) {
    reply({cmd: 'DISPATCH', evt: 'READY', nonce: null, data: {
      v: 1, config: {api_endpoint: '//discord.com/api', environment: 'production'},
      user: {id: params.get('user'), username: params.get('name'), discriminator: '0'},
    }});
    return;
  }
  if (op !== 1) return;
  let answer = null;
  switch (data.cmd) {
    case 'AUTHORIZE':
      answer = {code: params.get('code')};
      break;
    case 'AUTHENTICATE':
      answer = {
        access_token: data.args.access_token,
        user: {id: params.get('user'), username: params.get('name'), discriminator: '0', avatar: null, public_flags: 0},
        scopes: ['identify'], expires: new Date(Date.now() + 6048e5).toISOString(),
        application: {id: params.get('app'), name: 'Conductor', description: ''},
      };
      break;
  }
  reply({cmd: data.cmd, evt: null, nonce: data.nonce, data: answer});
});

frame.src = '/?' + new URLSearchParams({
  frame_id: frameId, instance_id: params.get('instance'), platform: params.get('platform') || 'desktop',
  guild_id: params.get('guild'), channel_id: params.get('channel'),
});
