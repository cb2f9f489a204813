import type { SalesforceField, SalesforceFieldType } from './field-types';

/** The data set: the standard objects' fields, as describe names them (a subset of the real ones). */

export const field = (
  name: string,
  type: SalesforceFieldType,
  extra: Partial<SalesforceField> = {},
): SalesforceField => ({ name, type, ...extra });
const lookup = (name: string, target: string, relationshipName: string) =>
  field(name, 'reference', { referenceTo: [target], relationshipName });
const audit = [
  field('CreatedDate', 'datetime'),
  field('LastModifiedDate', 'datetime'),
  field('IsDeleted', 'boolean'),
];

/** The standard fields served for each object (a subset of the real ones). */
export const standardFields: Record<string, SalesforceField[]> = {
  Account: [
    field('Id', 'id'),
    field('Name', 'string'),
    field('Type', 'picklist'),
    field('Industry', 'picklist'),
    field('Website', 'url'),
    field('BillingCity', 'string'),
    field('BillingCountry', 'string'),
    field('NumberOfEmployees', 'int'),
    field('AnnualRevenue', 'currency'),
    lookup('ParentId', 'Account', 'Parent'),
    ...audit,
  ],
  Contact: [
    field('Id', 'id'),
    field('FirstName', 'string'),
    field('LastName', 'string'),
    field('Name', 'string'),
    field('Email', 'email'),
    field('Title', 'string'),
    field('Department', 'string'),
    field('Phone', 'phone'),
    field('MailingCity', 'string'),
    field('MailingCountry', 'string'),
    field('HasOptedOutOfEmail', 'boolean'),
    lookup('AccountId', 'Account', 'Account'),
    ...audit,
  ],
  Lead: [
    field('Id', 'id'),
    field('FirstName', 'string'),
    field('LastName', 'string'),
    field('Name', 'string'),
    field('Email', 'email'),
    field('Title', 'string'),
    field('Company', 'string'),
    field('Industry', 'picklist'),
    field('NumberOfEmployees', 'int'),
    field('AnnualRevenue', 'currency'),
    field('Status', 'picklist'),
    field('City', 'string'),
    field('Country', 'string'),
    field('IsConverted', 'boolean'),
    field('HasOptedOutOfEmail', 'boolean'),
    lookup('ConvertedAccountId', 'Account', 'ConvertedAccount'),
    lookup('ConvertedContactId', 'Contact', 'ConvertedContact'),
    ...audit,
  ],
  Campaign: [
    field('Id', 'id'),
    field('Name', 'string'),
    field('Type', 'picklist'),
    field('Status', 'picklist'),
    field('Description', 'textarea'),
    field('StartDate', 'date'),
    field('EndDate', 'date'),
    field('IsActive', 'boolean'),
    field('BudgetedCost', 'currency'),
    field('ActualCost', 'currency'),
    field('ExpectedRevenue', 'currency'),
    field('ExpectedResponse', 'percent'),
    field('NumberSent', 'double'),
    field('NumberOfContacts', 'int'),
    field('NumberOfLeads', 'int'),
    field('NumberOfResponses', 'int'),
    lookup('ParentId', 'Campaign', 'Parent'),
    ...audit,
  ],
  CampaignMember: [
    field('Id', 'id'),
    lookup('CampaignId', 'Campaign', 'Campaign'),
    lookup('ContactId', 'Contact', 'Contact'),
    lookup('LeadId', 'Lead', 'Lead'),
    field('Status', 'picklist'),
    field('HasResponded', 'boolean'),
    field('FirstRespondedDate', 'date'),
    field('Type', 'string'),
    ...audit,
  ],
};
