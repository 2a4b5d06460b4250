// The dashboard's pages that the product links to from outside it (notification messages, alert
// emails), in one place, so a link cannot point at a page no route serves (a test follows each).
export function submissionLink(baseUrl: string, formId: string, submissionId: string): string {
  return `${baseUrl}/forms/${formId}/submissions/${submissionId}`;
}

export function destinationLink(baseUrl: string, formId: string, destinationId: string): string {
  return `${baseUrl}/forms/${formId}/notifications/${destinationId}`;
}
