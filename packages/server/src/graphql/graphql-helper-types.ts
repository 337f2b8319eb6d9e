/** The small helper interfaces of interface.md §2.7 and their objects. */
import {
  GraphQLBoolean,
  GraphQLInputObjectType,
  GraphQLInterfaceType,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLString,
  type GraphQLFieldConfigMap,
} from 'graphql';
import { deprecatedAlias } from './graphql-deprecated-names.js';
import { JsonScalar } from './graphql-scalars.js';

type Fields = () => GraphQLFieldConfigMap<unknown, unknown>;

function interfaceWithObject(name: string, objectName: string, description: string, fields: Fields, oldName?: string) {
  // One object per interface, so the concrete type is always the same.
  const iface = new GraphQLInterfaceType({ name, description, fields, resolveType: () => objectName });
  const alias = oldName ? deprecatedAlias(oldName, iface, fields, () => objectName) : null;
  const object = new GraphQLObjectType({ name: objectName, interfaces: alias ? [iface, alias] : [iface], fields });
  return { iface, object, alias };
}

const str = (description: string) => ({ type: GraphQLString, description });

export const Option = interfaceWithObject(
  'SvcOptionInterface',
  'SvcOption',
  'An option of a choice field.',
  () => ({ value: str('Stored value'), label: str('Shown label'), checked: { type: GraphQLBoolean, description: 'Checked by default' } }),
  'OptionsInterface',
);

export const OpinionScale = interfaceWithObject(
  'SvcOpinionScaleInterface',
  'SvcOpinionScale',
  'A step of an opinion scale.',
  () => ({ value: str('Stored value'), label: str('Shown label') }),
  'ScalesInterface',
);

export const Attribute = interfaceWithObject(
  'SvcAttributeInterface',
  'SvcAttribute',
  'An HTML attribute for an input, label, error or instruction element.',
  () => ({ attribute: str('Attribute name'), value: str('Attribute value') }),
  'KeyValueMapInterface',
);

export const Honeypot = interfaceWithObject('SvcHoneypotInterface', 'SvcHoneypot', 'The honeypot input: send it back empty.', () => ({
  name: str('Input name'),
  value: str('Input value (empty)'),
  hash: { type: GraphQLString, deprecationReason: 'Honeypots are named per form; use name.' },
  timestamp: {
    type: GraphQLString,
    description: 'The signed fill timestamp to send back with the honeypot when the form has a minimum fill time; null otherwise.',
    deprecationReason: 'Deprecated by the interface; use name, and send this back only for a minimum fill time.',
  },
}));

export const CsrfToken = interfaceWithObject('SvcCsrfTokenInterface', 'SvcCsrfToken', 'A CSRF token and the name to send it under.', () => ({
  name: str('Parameter name'),
  value: str('Token'),
}));

export const FormCaptcha = interfaceWithObject('SvcFormCaptchaInterface', 'SvcFormCaptcha', "The form's captcha configuration.", () => ({
  name: str("The form's GraphQL mutation name"),
  handle: str('Captcha provider'),
  enabled: { type: GraphQLBoolean, description: 'Whether a captcha is required' },
}));

export const SubmissionCaptcha = interfaceWithObject('SvcSubmissionCaptchaInterface', 'SvcSubmissionCaptcha', 'A captcha response.', () => ({
  name: str('Response field name'),
  value: str('Response'),
}));

function nameValueInput(name: string, description: string) {
  return new GraphQLInputObjectType({
    name,
    description,
    fields: { name: { type: new GraphQLNonNull(GraphQLString) }, value: { type: new GraphQLNonNull(GraphQLString) } },
  });
}

export const HoneypotInput = new GraphQLInputObjectType({
  name: 'SvcHoneypotInputType',
  description: 'The honeypot as the form gave it (value empty), with its fill timestamp when it has one.',
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString) },
    value: { type: new GraphQLNonNull(GraphQLString) },
    timestamp: { type: GraphQLString, description: "The form's honeypot.timestamp, for a minimum fill time" },
  },
});
/** Not in interface.md: the same signal REST carries in meta.javascriptTest, so both transports judge spam alike. */
export const JavascriptTestInput = nameValueInput('SvcJavascriptTestInputType', "The form's javascriptTest {name, value}, as a script-running client sends it back.");
/** A submit through a named profile (contract §9): what REST's profile submit takes from its request. */
export const ProfileInput = new GraphQLInputObjectType({
  name: 'SvcProfileInputType',
  description: "Submit through a named profile of the form: its rules, locked and hidden values, and its record of who submitted.",
  fields: {
    name: { type: new GraphQLNonNull(GraphQLString), description: 'The profile (headless.profiles.<name>)' },
    properties: { type: JsonScalar, description: "The profile's properties, e.g. {\"eventId\": 42}" },
    token: { type: GraphQLString, description: "A signed link's token, for a profile that requires one" },
    userToken: {
      type: GraphQLString,
      description: "The signed-in person's JWT, for a profile that requires auth (Authorization is for API tokens here); its subject becomes the submission's user",
    },
  },
});

export const CaptchaInput = nameValueInput('SvcSubmissionCaptchaInputType', 'A captcha response.');
export const CsrfTokenInput = nameValueInput('SvcCsrfTokenInputType', 'A CSRF token from the form or /svc/tokens.');

export const attributeList = new GraphQLList(Attribute.iface);

export const HELPER_TYPES = [Option, OpinionScale, Attribute, Honeypot, CsrfToken, FormCaptcha, SubmissionCaptcha].flatMap((t) =>
  t.alias ? [t.iface, t.object, t.alias] : [t.iface, t.object],
);
