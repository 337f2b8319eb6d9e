import { createTestApp } from './support/test-app.js';
const svc = await createTestApp({ config: { forms: { watch: false }, graphql: { introspection: true } } });
const q = async (query: string, variables?: object, headers: Record<string,string> = {}) => {
  const r = await svc.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'application/json', ...headers }, payload: JSON.stringify({ query, variables }) });
  return { status: r.statusCode, headers: r.headers, body: r.json() };
};
const arg = process.argv[2] ?? '{ svc { forms { id uid handle name hash defaultStatus enctype mailingListName submissionMutationName honeypot { name value } csrfToken { name value } captcha { name handle enabled } } } }';
console.log(JSON.stringify(await q(arg), null, 1));
await svc.close();
