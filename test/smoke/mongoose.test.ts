import mongoose, { Schema } from 'mongoose';
import { isolatedNames, wireMongoUrl } from '../harness/isolation';

// mongoose speaks only the wire protocol: this test always runs on the Mongo-wire server.
const mongoUrl = wireMongoUrl(isolatedNames(__filename).mongoDatabase);

type Tenant = { tenantId: number; name: string };
const TenantSchema = new Schema<Tenant>({ tenantId: { type: Number, required: true }, name: String });
TenantSchema.index({ tenantId: 1 }, { unique: true });

describe('mongoose on the Mongo-wire server', () => {
  let connection: mongoose.Connection;

  beforeAll(async () => {
    connection = await mongoose.createConnection(mongoUrl).asPromise();
  });
  afterAll(async () => {
    await connection.dropDatabase();
    await connection.close();
  });

  it('writes a document and reads it back', async () => {
    const Tenants = connection.model('Tenant', TenantSchema);
    await Tenants.init();
    await Tenants.create({ tenantId: 1, name: 'Acme Receivables' });
    const found = await Tenants.findOne({ tenantId: 1 }).lean();
    expect(found?.name).toBe('Acme Receivables');
  });

  it('rejects a duplicate on a unique index and keeps the original', async () => {
    const Tenants = connection.model('Tenant', TenantSchema);
    await Tenants.create({ tenantId: 2, name: 'First' });
    await expect(Tenants.create({ tenantId: 2, name: 'Second' })).rejects.toMatchObject({ code: 11000 });
    const rows = await Tenants.find({ tenantId: 2 }).lean();
    expect(rows.map((r) => r.name)).toEqual(['First']);
  });
});
