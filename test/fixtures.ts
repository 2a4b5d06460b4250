// Field schemas shared by several test files.

/** The rules-engine example of the peer contract. */
export const PEER_EXAMPLE_SCHEMA = {
  fields: [
    { name: 'email', type: 'email', rules: [{ op: 'required' }] },
    { name: 'role', type: 'string', rules: [{ op: 'one_of', values: ['personal', 'business'] }] },
    { name: 'company', type: 'string', rules: [{ op: 'required', when: { field: 'role', is: 'eq', value: 'business' } }] },
    { name: 'age', type: 'number', rules: [{ op: 'min', value: 18 }, { op: 'max', value: 120 }] },
    { name: 'website', type: 'string', rules: [{ op: 'honeypot' }] },
  ],
};

export const CONTACT_SCHEMA = {
  fields: [
    { name: 'name', type: 'string', required: true },
    { name: 'email', type: 'email', required: true },
    { name: 'message', type: 'string', rules: [{ op: 'max_length', value: 2000 }] },
    { name: 'age', type: 'number' },
  ],
};

/** A small knowledge base of question-and-answer pairs. */
export const FAQ = [
  'Q: How do I reset my password?',
  'A: Open the sign-in page and choose "Forgot password". We email you a link that is valid for one hour.',
  '',
  'Q: Do you ship to Canada?',
  'A: Yes. Orders to Canada arrive within 5 to 8 working days.',
  'Customs fees are paid on delivery.',
  '',
  'Q: Can I cancel my subscription?',
  'A: You can cancel any time under Settings, Billing. The plan runs until the end of the month you paid for.',
].join('\n');
