/**
 * A manifest's bytes with what differs per database (uids, hashes, row ids, the spam-field names
 * and javascript-test value derived from them) replaced by placeholders: two manifests of the same
 * form on different databases (or with other forms beside it) then compare byte for byte, and a committed copy stays comparable.
 */
export function normaliseManifest(body: string): string {
  return body
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/"(uid|hash|id|targetFieldHash)":"[^"]*"/g, '"$1":"*"')
    // Numeric ids follow the order forms were first seen in; the site's id is checked on its own.
    .replace(/"id":\d+/g, '"id":0')
    .replace(/svc_(hp|js)_[A-Za-z0-9_-]+/g, 'svc_$1_*')
    .replace(/("name":"svc_js_\*","value":)"[^"]*"/g, '$1"*"');
}
