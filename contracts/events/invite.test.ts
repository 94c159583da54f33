import { InviteCreated, inviteEventUpcasters } from './invite';

describe('InviteCreated v1', () => {
  it('upcasts to an invitation without a token, expiring 7 days after it was created', () => {
    const v1 = {
      InviteId: '0b7e4c1e-6f3a-4d2b-9a55-1c2d3e4f5a6b',
      TenantId: 4,
      Email: 'bob@example.com',
      Name: 'Bob',
      Role: 'USER',
      JobTitle: null,
      SubscribeToReports: false,
      ClassifyAsAdvisor: false,
      Workflow: 'STANDARD',
      CreatedAt: '2025-03-04T10:00:00.000Z',
    };
    const upcast = inviteEventUpcasters.InviteCreated[1](v1);
    expect(InviteCreated.shape.data.parse(upcast)).toEqual({
      ...v1,
      TokenHash: null,
      ExpiresAt: '2025-03-11T10:00:00.000Z',
    });
  });
});
