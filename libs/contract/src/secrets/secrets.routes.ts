/** The secrets routes (filled in as the area moves onto the contract). */
export const secretsRoutes = {};
