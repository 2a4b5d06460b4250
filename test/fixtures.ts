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
