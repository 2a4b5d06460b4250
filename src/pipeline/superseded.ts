/** The submission was deleted or finished by another run while this one worked: stop quietly. */
export class Superseded extends Error {}
