/** The spec's table texts (portal.md section 8, Empty or failed tables). */
export const tableTexts = {
  loading: 'Loading...',
  noData: 'No Data',
  noPlatforms: 'No Platforms Connected',
  noRecipients: 'No Report Recipients',
  noArchivedReports: 'No Reports Archived',
  noUsers: 'No Users Found',
  noClientsMatched: 'No Clients Matched',
  noClients: 'No Clients Connected',
} as const;
