/**
 * A realistic tool catalog and a labelled set of search queries over it, for the search benchmark
 * (`npm run bench:search`) and the recall floor in search.int.test.ts. The tools are written the
 * way their vendors document them (names like `weather.forecast`, JSON Schema parameters with
 * descriptions), with close neighbours in every domain so a query has to pick the right one; the
 * queries are written the way a user types into the console or a model asks for a tool:
 * paraphrases, partial words, misspellings and parameter names. Change a query only when the
 * catalog changes, never to make the ranking look better.
 */

/** One tool: what `POST /v1/tools` and its first published version carry. */
export interface CatalogTool {
  name: string;
  description: string;
  tags: string[];
  /** JSON Schema (2020-12) of the arguments. */
  parameters: Record<string, unknown>;
}

/** One labelled query: the tool a person asking this wants. */
export interface LabelledQuery {
  query: string;
  expected: string;
}

type Property = Record<string, unknown>;

const text = (description: string, extra: Property = {}): Property => ({
  type: 'string',
  description,
  ...extra,
});
const number = (description: string): Property => ({ type: 'number', description });
const integer = (description: string, extra: Property = {}): Property => ({
  type: 'integer',
  description,
  ...extra,
});
const flag = (description: string): Property => ({ type: 'boolean', description });
const choice = (values: string[], description: string): Property => ({
  type: 'string',
  enum: values,
  description,
});
const list = (description: string, items: Property = { type: 'string' }): Property => ({
  type: 'array',
  description,
  items,
});
const object = (
  description: string,
  properties: Record<string, Property>,
  required: string[] = [],
): Property => ({ type: 'object', description, properties, required });

function tool(
  name: string,
  description: string,
  tags: string[],
  properties: Record<string, Property>,
  required: string[] = [],
): CatalogTool {
  return {
    name,
    description,
    tags,
    parameters: { type: 'object', properties, required, additionalProperties: false },
  };
}

const location = text('City name, postal code or "lat,lon", e.g. "Oslo" or "59.91,10.75".');
const units = choice(['metric', 'imperial'], 'Units for temperatures and speeds.');
const pageSize = integer('Maximum number of results to return.', { minimum: 1, maximum: 100 });
const cursor = text('Opaque cursor from the previous page of results.');
const dateTime = (description: string): Property => text(description, { format: 'date-time' });
const date = (description: string): Property => text(description, { format: 'date' });
const money = integer('Amount in the smallest currency unit (cents for USD).', { minimum: 1 });
const currency = text('Three-letter ISO 4217 currency code, e.g. "USD".');

const weather: CatalogTool[] = [
  tool(
    'weather.current',
    'Current weather conditions at a location: temperature, feels-like, humidity, wind and a short summary such as "light rain". Updated every 10 minutes.',
    ['weather'],
    { location, units },
    ['location'],
  ),
  tool(
    'weather.forecast',
    'Daily weather forecast for the next 1-16 days: high and low temperatures, chance of precipitation, wind and conditions per day.',
    ['weather', 'forecast'],
    { location, days: integer('Number of days to forecast.', { minimum: 1, maximum: 16 }), units },
    ['location'],
  ),
  tool(
    'weather.hourly_forecast',
    'Hour-by-hour weather forecast for the next 48 hours, with temperature and precipitation probability per hour.',
    ['weather', 'forecast'],
    { location, hours: integer('Hours ahead, up to 48.', { maximum: 48 }), units },
    ['location'],
  ),
  tool(
    'weather.alerts',
    'Active severe weather warnings issued by national meteorological services for an area (storms, floods, heat waves).',
    ['weather', 'alerts'],
    { location, severity: choice(['minor', 'moderate', 'severe', 'extreme'], 'Minimum severity.') },
    ['location'],
  ),
  tool(
    'weather.historical',
    'Observed weather for a past date at a location, back to 1979: temperatures, rainfall and wind.',
    ['weather', 'history'],
    { location, date: date('The past day to report.'), units },
    ['location', 'date'],
  ),
  tool(
    'weather.air_quality',
    'Air quality index and pollutant concentrations (PM2.5, PM10, ozone, NO2) at a location.',
    ['weather', 'environment'],
    { location },
    ['location'],
  ),
  tool(
    'weather.uv_index',
    'Ultraviolet index for today and the next days, with sun protection advice.',
    ['weather', 'health'],
    { location },
    ['location'],
  ),
  tool(
    'weather.marine',
    'Marine conditions for a coastal point: wave height, swell period, sea temperature and tides.',
    ['weather', 'marine'],
    { location, days: integer('Days ahead, up to 7.') },
    ['location'],
  ),
];

const geo: CatalogTool[] = [
  tool(
    'geocoding.forward',
    'Geocode a street address or place name into coordinates. Returns the best matches with a confidence score.',
    ['geocoding', 'maps'],
    {
      address: text('Free-form address, e.g. "10 Downing Street, London".'),
      country: text('ISO 3166 country code to restrict results to.'),
      limit: pageSize,
    },
    ['address'],
  ),
  tool(
    'geocoding.reverse',
    'Reverse geocoding: the nearest street address, city and country for a point on the map.',
    ['geocoding', 'maps'],
    {
      latitude: number('Latitude in decimal degrees, -90 to 90.'),
      longitude: number('Longitude in decimal degrees, -180 to 180.'),
      language: text('Preferred language of the result, BCP 47.'),
    },
    ['latitude', 'longitude'],
  ),
  tool(
    'geocoding.autocomplete',
    'Suggestions for a partially typed address or place, for search-as-you-type boxes.',
    ['geocoding', 'maps'],
    { input: text('What the user has typed so far.'), near: text('Bias results near "lat,lon".') },
    ['input'],
  ),
  tool(
    'geocoding.timezone',
    'The IANA time zone and current UTC offset at a place.',
    ['geocoding', 'time'],
    { location },
    ['location'],
  ),
  tool(
    'geoip.lookup',
    'Geolocate an IP address: country, region, city, ISP and approximate coordinates.',
    ['geocoding', 'network'],
    { ip: text('IPv4 or IPv6 address.') },
    ['ip'],
  ),
  tool(
    'maps.directions',
    'Turn-by-turn route between an origin and a destination by car, bike, foot or transit, with travel time.',
    ['maps', 'routing'],
    {
      origin: text('Start address or "lat,lon".'),
      destination: text('End address or "lat,lon".'),
      mode: choice(['driving', 'walking', 'bicycling', 'transit'], 'Travel mode.'),
      avoid_tolls: flag('Avoid toll roads.'),
    },
    ['origin', 'destination'],
  ),
  tool(
    'maps.distance_matrix',
    'Travel distance and duration between several origins and destinations.',
    ['maps', 'routing'],
    {
      origins: list('Start addresses or coordinates.'),
      destinations: list('End addresses or coordinates.'),
      mode: choice(['driving', 'walking', 'bicycling', 'transit'], 'Travel mode.'),
    },
    ['origins', 'destinations'],
  ),
  tool(
    'maps.nearby_places',
    'Places of a given type around a location, e.g. cafes, pharmacies or gas stations, sorted by distance.',
    ['maps', 'places'],
    {
      location,
      type: text('Place category, e.g. "cafe", "pharmacy".'),
      radius_m: integer('Search radius in meters.'),
      open_now: flag('Only places open now.'),
    },
    ['location'],
  ),
  tool(
    'maps.place_details',
    'Opening hours, phone number, rating, reviews and photos of one place.',
    ['maps', 'places'],
    { place_id: text('Place id from a search.') },
    ['place_id'],
  ),
  tool(
    'maps.static_image',
    'Render a static map image (PNG) centred on a location, with optional markers.',
    ['maps', 'images'],
    { center: location, zoom: integer('Zoom level 1-20.'), markers: list('Marker positions.') },
    ['center'],
  ),
  tool(
    'maps.elevation',
    'Height above sea level of one or more points.',
    ['maps'],
    { points: list('Points as "lat,lon".') },
    ['points'],
  ),
  tool(
    'maps.traffic',
    'Live traffic incidents and congestion on roads in an area.',
    ['maps', 'routing'],
    { area: text('City or bounding box.') },
    ['area'],
  ),
];

const payments: CatalogTool[] = [
  tool(
    'payments.create_charge',
    'Charge a customer: creates a payment intent for a card or saved payment method and confirms it.',
    ['payments', 'stripe'],
    {
      amount: money,
      currency,
      customer_id: text('Customer to charge.'),
      payment_method: text('Saved card or payment method id.'),
      description: text('Shown on the receipt.'),
    },
    ['amount', 'currency'],
  ),
  tool(
    'payments.refund',
    'Refund a charge, fully or partially. The money goes back to the original payment method.',
    ['payments', 'stripe'],
    {
      charge_id: text('The charge to refund.'),
      amount: integer('Amount to refund in cents; the whole charge when omitted.'),
      reason: choice(['duplicate', 'fraudulent', 'requested_by_customer'], 'Why.'),
    },
    ['charge_id'],
  ),
  tool(
    'payments.create_customer',
    'Create a billing customer with email, name and default payment method.',
    ['payments', 'billing'],
    { email: text('Billing email.'), name: text('Full name or company.') },
    ['email'],
  ),
  tool(
    'payments.create_invoice',
    'Draft an invoice for a customer with line items; finalize it to make it payable.',
    ['payments', 'billing', 'invoices'],
    {
      customer_id: text('Customer to bill.'),
      items: list(
        'Line items.',
        object('One line.', { description: text('Item.'), amount: money }, ['amount']),
      ),
      due_date: date('When payment is due.'),
    },
    ['customer_id', 'items'],
  ),
  tool(
    'payments.send_invoice',
    'Email a finalized invoice to the customer with a link to pay it online.',
    ['payments', 'billing', 'invoices'],
    { invoice_id: text('Invoice to send.') },
    ['invoice_id'],
  ),
  tool(
    'payments.list_invoices',
    'List invoices, filtered by customer and status (draft, open, paid, void).',
    ['payments', 'billing', 'invoices'],
    {
      customer_id: text('Only this customer.'),
      status: choice(['draft', 'open', 'paid', 'void'], 'Only this status.'),
      limit: pageSize,
    },
  ),
  tool(
    'payments.create_subscription',
    'Start a recurring subscription of a customer to a price (monthly or yearly plan).',
    ['payments', 'billing', 'subscriptions'],
    {
      customer_id: text('Subscriber.'),
      price_id: text('Plan price.'),
      trial_days: integer('Free trial length.'),
    },
    ['customer_id', 'price_id'],
  ),
  tool(
    'payments.cancel_subscription',
    'Cancel a subscription now or at the end of the current billing period.',
    ['payments', 'billing', 'subscriptions'],
    {
      subscription_id: text('Subscription to cancel.'),
      at_period_end: flag('Keep it active until the period ends.'),
    },
    ['subscription_id'],
  ),
  tool(
    'payments.create_payment_link',
    'A shareable checkout URL for a product or amount that customers can pay without an account.',
    ['payments', 'checkout'],
    { amount: money, currency, product_name: text('What is sold.') },
    ['amount', 'currency'],
  ),
  tool(
    'payments.get_balance',
    'Available and pending funds in the merchant account, per currency.',
    ['payments', 'finance'],
    {},
  ),
  tool(
    'payments.list_disputes',
    'Chargebacks and disputes opened by cardholders, with their deadlines for evidence.',
    ['payments', 'risk'],
    { status: choice(['needs_response', 'under_review', 'won', 'lost'], 'Dispute status.') },
  ),
  tool(
    'payments.create_payout',
    'Send funds from the merchant balance to the linked bank account.',
    ['payments', 'finance'],
    { amount: money, currency },
    ['amount', 'currency'],
  ),
  tool(
    'paypal.send_money',
    'Send money to a person by email or phone through PayPal.',
    ['payments', 'paypal'],
    { recipient: text('Email or phone of the recipient.'), amount: number('Amount.'), currency },
    ['recipient', 'amount', 'currency'],
  ),
];

const money_tools: CatalogTool[] = [
  tool(
    'currency.convert',
    'Convert an amount from one currency to another at the latest exchange rate.',
    ['currency', 'finance'],
    {
      amount: number('Amount in the source currency.'),
      from: text('Source currency, ISO 4217 (e.g. "USD").'),
      to: text('Target currency, ISO 4217 (e.g. "EUR").'),
    },
    ['amount', 'from', 'to'],
  ),
  tool(
    'currency.rates',
    'Latest exchange rates of a base currency against all others, updated hourly.',
    ['currency', 'finance'],
    { base: text('Base currency, ISO 4217.') },
    ['base'],
  ),
  tool(
    'currency.historical_rates',
    'Exchange rates on a past date, for accounting and reports.',
    ['currency', 'finance'],
    { base: text('Base currency.'), date: date('The day.') },
    ['base', 'date'],
  ),
  tool(
    'currency.list',
    'Every supported currency with its ISO code, name and symbol.',
    ['currency'],
    {},
  ),
  tool(
    'crypto.price',
    'Spot price of a cryptocurrency such as Bitcoin or Ether, with 24-hour change.',
    ['crypto', 'finance'],
    { symbol: text('Ticker, e.g. "BTC".'), vs_currency: text('Quote currency, default USD.') },
    ['symbol'],
  ),
  tool(
    'crypto.wallet_balance',
    'Token balances held by a blockchain wallet address.',
    ['crypto'],
    {
      address: text('Wallet address.'),
      chain: choice(['ethereum', 'bitcoin', 'solana'], 'Chain.'),
    },
    ['address'],
  ),
  tool(
    'stocks.quote',
    'Real-time stock quote for a ticker symbol: last price, change, volume and market cap.',
    ['stocks', 'finance'],
    { ticker: text('Ticker symbol, e.g. "AAPL".') },
    ['ticker'],
  ),
  tool(
    'stocks.history',
    'Daily open, high, low, close and volume of a stock over a date range.',
    ['stocks', 'finance'],
    { ticker: text('Ticker symbol.'), start: date('First day.'), end: date('Last day.') },
    ['ticker'],
  ),
  tool(
    'stocks.company_profile',
    "A listed company's sector, industry, headquarters, CEO and business summary.",
    ['stocks', 'finance'],
    { ticker: text('Ticker symbol.') },
    ['ticker'],
  ),
  tool(
    'accounting.create_expense',
    'Record a business expense with amount, category, vendor and a receipt image.',
    ['accounting', 'finance'],
    {
      amount: number('Amount spent.'),
      category: text('Expense category, e.g. "travel".'),
      vendor: text('Who was paid.'),
      receipt_url: text('Link to the receipt photo.'),
    },
    ['amount', 'category'],
  ),
  tool(
    'accounting.list_bills',
    'Unpaid supplier bills and their due dates.',
    ['accounting', 'finance'],
    { due_before: date('Only bills due before this day.') },
  ),
  tool(
    'tax.sales_tax',
    'Calculate sales tax or VAT for an order from the ship-to address and line items.',
    ['tax', 'finance', 'ecommerce'],
    {
      to_address: text('Ship-to address.'),
      amount: number('Order subtotal.'),
      product_code: text('Tax code of the goods.'),
    },
    ['to_address', 'amount'],
  ),
];

const crm: CatalogTool[] = [
  tool(
    'crm.create_contact',
    'Add a person to the CRM as a new contact.',
    ['crm', 'sales'],
    {
      first_name: text('Given name.'),
      last_name: text('Family name.'),
      email: text('Email address.'),
      phone: text('Phone number.'),
      company_id: text('Company the contact works for.'),
    },
    ['email'],
  ),
  tool(
    'crm.update_contact',
    "Change a contact's fields, such as job title, phone or lifecycle stage.",
    ['crm', 'sales'],
    { contact_id: text('Contact to change.'), fields: object('Fields to set.', {}) },
    ['contact_id', 'fields'],
  ),
  tool(
    'crm.search_contacts',
    'Find contacts by name, email, company or any custom property.',
    ['crm', 'sales'],
    { query: text('Search text.'), limit: pageSize },
    ['query'],
  ),
  tool(
    'crm.delete_contact',
    'Permanently remove a contact and its activity history from the CRM.',
    ['crm', 'sales'],
    { contact_id: text('Contact to delete.') },
    ['contact_id'],
  ),
  tool(
    'crm.merge_contacts',
    'Merge two duplicate contact records into one, keeping the newest values.',
    ['crm', 'sales'],
    { primary_id: text('Record to keep.'), duplicate_id: text('Record merged into it.') },
    ['primary_id', 'duplicate_id'],
  ),
  tool(
    'crm.create_company',
    'Create a company (account) record with domain, industry and size.',
    ['crm', 'sales'],
    { name: text('Company name.'), domain: text('Website domain.') },
    ['name'],
  ),
  tool(
    'crm.create_deal',
    'Open a new deal (opportunity) in the sales pipeline with amount and close date.',
    ['crm', 'sales', 'pipeline'],
    {
      title: text('Deal name.'),
      amount: number('Expected value.'),
      close_date: date('Expected close date.'),
      contact_id: text('Main contact.'),
    },
    ['title'],
  ),
  tool(
    'crm.update_deal_stage',
    'Move a deal to another pipeline stage, e.g. from qualified to proposal or closed won.',
    ['crm', 'sales', 'pipeline'],
    { deal_id: text('Deal to move.'), stage: text('Target stage name.') },
    ['deal_id', 'stage'],
  ),
  tool(
    'crm.list_deals',
    'Deals in the pipeline, filtered by owner, stage or close date.',
    ['crm', 'sales', 'pipeline'],
    { owner_id: text('Sales rep.'), stage: text('Stage name.'), limit: pageSize },
  ),
  tool(
    'crm.log_activity',
    'Log a call, meeting or email with a contact on their timeline.',
    ['crm', 'sales'],
    {
      contact_id: text('Contact.'),
      type: choice(['call', 'meeting', 'email'], 'Kind of activity.'),
      notes: text('What happened.'),
    },
    ['contact_id', 'type'],
  ),
  tool(
    'crm.assign_owner',
    'Assign a contact, company or deal to a sales rep.',
    ['crm', 'sales'],
    { record_id: text('Record to assign.'), owner_id: text('Sales rep.') },
    ['record_id', 'owner_id'],
  ),
  tool(
    'crm.add_note',
    'Attach a free-text note to a contact, company or deal.',
    ['crm', 'sales'],
    { record_id: text('Record.'), body: text('Note text.') },
    ['record_id', 'body'],
  ),
];

const calendar: CatalogTool[] = [
  tool(
    'calendar.create_event',
    'Create a calendar event or meeting with a title, start and end time, location and attendees.',
    ['calendar', 'scheduling'],
    {
      title: text('Event title.'),
      start: dateTime('Start time, RFC 3339.'),
      end: dateTime('End time, RFC 3339.'),
      attendees: list('Email addresses to invite.'),
      location: text('Room or address.'),
      video_call: flag('Add a video conference link.'),
    },
    ['title', 'start', 'end'],
  ),
  tool(
    'calendar.list_events',
    "Events on the user's calendar between two times, e.g. today's agenda.",
    ['calendar'],
    { time_min: dateTime('From.'), time_max: dateTime('Until.'), calendar_id: text('Calendar.') },
  ),
  tool(
    'calendar.update_event',
    'Reschedule or edit an existing event: time, title, location or attendees.',
    ['calendar', 'scheduling'],
    {
      event_id: text('Event to change.'),
      start: dateTime('New start.'),
      end: dateTime('New end.'),
    },
    ['event_id'],
  ),
  tool(
    'calendar.delete_event',
    'Cancel an event and notify its attendees.',
    ['calendar'],
    { event_id: text('Event to cancel.'), notify: flag('Email the attendees.') },
    ['event_id'],
  ),
  tool(
    'calendar.find_free_slots',
    'Find times when all the given people are available, within working hours.',
    ['calendar', 'scheduling'],
    {
      attendees: list('People who must attend.'),
      duration_minutes: integer('Meeting length.'),
      window_start: dateTime('Earliest start.'),
      window_end: dateTime('Latest end.'),
    },
    ['attendees', 'duration_minutes'],
  ),
  tool(
    'calendar.respond_to_invite',
    'Accept, decline or tentatively accept a meeting invitation.',
    ['calendar'],
    {
      event_id: text('The invitation.'),
      response: choice(['accepted', 'declined', 'tentative'], 'The answer.'),
    },
    ['event_id', 'response'],
  ),
  tool(
    'calendar.list_calendars',
    'The calendars the user owns or is subscribed to.',
    ['calendar'],
    {},
  ),
  tool(
    'scheduling.booking_link',
    'Create a booking page link where others pick a time slot with you (like Calendly).',
    ['calendar', 'scheduling'],
    { duration_minutes: integer('Slot length.'), title: text('Page title.') },
    ['duration_minutes'],
  ),
];

const files: CatalogTool[] = [
  tool(
    'files.upload',
    'Upload a file to cloud storage (Drive) into a folder.',
    ['files', 'storage'],
    {
      file_name: text('Name of the new file.'),
      content_base64: text('File content, base64.'),
      folder_id: text('Destination folder.'),
    },
    ['file_name', 'content_base64'],
  ),
  tool(
    'files.download',
    'Download the content of a stored file.',
    ['files', 'storage'],
    { file_id: text('File to fetch.') },
    ['file_id'],
  ),
  tool('files.list', 'List the files and folders inside a folder.', ['files', 'storage'], {
    folder_id: text('Folder; the root when omitted.'),
    page_token: cursor,
  }),
  tool(
    'files.search',
    'Search files by name, type or text content across the drive.',
    ['files', 'storage', 'search'],
    {
      query: text('Words in the name or content.'),
      mime_type: text('Only files of this type.'),
    },
    ['query'],
  ),
  tool(
    'files.delete',
    'Move a file or folder to the trash.',
    ['files', 'storage'],
    { file_id: text('File to delete.') },
    ['file_id'],
  ),
  tool(
    'files.move',
    'Move or rename a file.',
    ['files', 'storage'],
    {
      file_id: text('File to move.'),
      new_parent_id: text('Destination folder.'),
      new_name: text('New name.'),
    },
    ['file_id'],
  ),
  tool(
    'files.share',
    'Share a file or folder with people, or get a link anyone can open, with viewer or editor access.',
    ['files', 'storage', 'sharing'],
    {
      file_id: text('File to share.'),
      emails: list('People to share with.'),
      role: choice(['viewer', 'commenter', 'editor'], 'Access level.'),
      anyone_with_link: flag('Create a public link.'),
    },
    ['file_id'],
  ),
  tool(
    'files.create_folder',
    'Create a new folder.',
    ['files', 'storage'],
    { name: text('Folder name.'), parent_id: text('Parent folder.') },
    ['name'],
  ),
  tool(
    'files.metadata',
    "A file's size, type, owner, created and modified times.",
    ['files', 'storage'],
    { file_id: text('The file.') },
    ['file_id'],
  ),
  tool(
    'files.convert_to_pdf',
    'Convert a Word, Excel, PowerPoint or HTML document to PDF.',
    ['files', 'documents'],
    { file_id: text('Source document.') },
    ['file_id'],
  ),
  tool(
    's3.list_objects',
    'List objects in an Amazon S3 bucket under a prefix.',
    ['aws', 'storage'],
    { bucket: text('Bucket name.'), prefix: text('Key prefix.') },
    ['bucket'],
  ),
  tool(
    's3.presigned_url',
    'A time-limited URL to download or upload one S3 object without credentials.',
    ['aws', 'storage'],
    {
      bucket: text('Bucket.'),
      key: text('Object key.'),
      expires_in: integer('Seconds.'),
    },
    ['bucket', 'key'],
  ),
];

const email: CatalogTool[] = [
  tool(
    'email.send',
    'Send an email message to one or more recipients, with optional CC, BCC and attachments.',
    ['email'],
    {
      to: list('Recipient addresses.'),
      subject: text('Subject line.'),
      body: text('Message body, plain text or HTML.'),
      cc: list('Carbon copy.'),
      attachments: list('File ids to attach.'),
    },
    ['to', 'subject', 'body'],
  ),
  tool(
    'email.search',
    'Search the mailbox with Gmail-style queries (from:, subject:, has:attachment, after:).',
    ['email', 'search'],
    { query: text('Search query.'), max_results: pageSize },
    ['query'],
  ),
  tool(
    'email.read',
    'The full content of one message: headers, body and attachment names.',
    ['email'],
    { message_id: text('Message to read.') },
    ['message_id'],
  ),
  tool(
    'email.reply',
    'Reply to a message in its thread, optionally to all recipients.',
    ['email'],
    {
      message_id: text('Message to answer.'),
      body: text('Reply text.'),
      reply_all: flag('Include every recipient.'),
    },
    ['message_id', 'body'],
  ),
  tool(
    'email.forward',
    'Forward a message to other recipients with a note.',
    ['email'],
    { message_id: text('Message.'), to: list('Recipients.'), note: text('Text added on top.') },
    ['message_id', 'to'],
  ),
  tool('email.create_draft', 'Save a message as a draft without sending it.', ['email'], {
    to: list('Recipients.'),
    subject: text('Subject.'),
    body: text('Body.'),
  }),
  tool(
    'email.add_label',
    'Apply a label (folder) to messages, or archive them.',
    ['email'],
    { message_ids: list('Messages.'), label: text('Label name.') },
    ['message_ids', 'label'],
  ),
  tool('email.list_unread', 'Unread messages in the inbox, newest first.', ['email'], {
    limit: pageSize,
  }),
  tool(
    'newsletter.add_subscriber',
    'Add an email address to a mailing list (audience), with merge fields and tags.',
    ['marketing', 'email'],
    {
      list_id: text('Audience.'),
      email_address: text('Subscriber email.'),
      merge_fields: object('First name, last name and custom fields.', {}),
    },
    ['list_id', 'email_address'],
  ),
  tool(
    'newsletter.create_campaign',
    'Create an email marketing campaign for an audience, with subject and content.',
    ['marketing', 'email'],
    { list_id: text('Audience.'), subject: text('Subject.'), html: text('Content.') },
    ['list_id', 'subject'],
  ),
  tool(
    'newsletter.unsubscribe',
    'Remove an email address from a mailing list.',
    ['marketing', 'email'],
    { list_id: text('Audience.'), email_address: text('Who leaves.') },
    ['list_id', 'email_address'],
  ),
];

const messaging: CatalogTool[] = [
  tool(
    'slack.post_message',
    'Post a message to a Slack channel or thread, with Markdown and blocks.',
    ['slack', 'chat'],
    {
      channel: text('Channel id or name, e.g. "#general".'),
      text: text('Message text.'),
      thread_ts: text('Reply in this thread.'),
    },
    ['channel', 'text'],
  ),
  tool(
    'slack.send_dm',
    'Send a direct message to one Slack user.',
    ['slack', 'chat'],
    { user: text('User id or email.'), text: text('Message text.') },
    ['user', 'text'],
  ),
  tool(
    'slack.list_channels',
    'Public and private channels of the workspace the bot can see.',
    ['slack', 'chat'],
    { limit: pageSize },
  ),
  tool(
    'slack.create_channel',
    'Create a new Slack channel.',
    ['slack', 'chat'],
    { name: text('Channel name.'), is_private: flag('Private channel.') },
    ['name'],
  ),
  tool(
    'slack.invite_user',
    'Invite users to a channel.',
    ['slack', 'chat'],
    { channel: text('Channel.'), users: list('User ids.') },
    ['channel', 'users'],
  ),
  tool(
    'slack.set_status',
    "Set the user's Slack status text and emoji, e.g. out of office.",
    ['slack', 'chat'],
    { status_text: text('Status.'), status_emoji: text('Emoji code.') },
    ['status_text'],
  ),
  tool(
    'slack.search_messages',
    'Search messages across channels the user can read.',
    ['slack', 'chat', 'search'],
    { query: text('Words to find.') },
    ['query'],
  ),
  tool(
    'sms.send',
    'Send an SMS text message to a phone number.',
    ['sms', 'messaging'],
    { to: text('Phone number in E.164 format, e.g. "+4791234567".'), body: text('Message.') },
    ['to', 'body'],
  ),
  tool(
    'whatsapp.send_template',
    'Send an approved WhatsApp template message to a customer.',
    ['whatsapp', 'messaging'],
    {
      to: text('Phone number in E.164.'),
      template: text('Template name.'),
      variables: list('Values for the placeholders.'),
    },
    ['to', 'template'],
  ),
  tool(
    'teams.post_message',
    'Post a message to a Microsoft Teams channel.',
    ['msteams', 'chat'],
    { team_id: text('Team.'), channel_id: text('Channel.'), content: text('Message HTML.') },
    ['team_id', 'channel_id', 'content'],
  ),
  tool(
    'voice.call',
    'Place an automated phone call that reads a message aloud.',
    ['voice', 'messaging'],
    { to: text('Phone number in E.164.'), message: text('What to say.') },
    ['to', 'message'],
  ),
];

const databases: CatalogTool[] = [
  tool(
    'postgres.query',
    'Run a read-only SQL query against a PostgreSQL database and return the rows.',
    ['database', 'sql', 'postgres'],
    {
      sql: text('The SELECT statement.'),
      params: list('Positional parameters ($1, $2, ...).', {}),
      timeout_ms: integer('Statement timeout.'),
    },
    ['sql'],
  ),
  tool(
    'postgres.list_tables',
    'Tables and views in a schema, with row estimates.',
    ['database', 'sql', 'postgres'],
    { schema: text('Schema, default "public".') },
  ),
  tool(
    'postgres.describe_table',
    'Columns, types, nullability, indexes and foreign keys of one table.',
    ['database', 'sql', 'postgres'],
    { table: text('Table name, optionally schema-qualified.') },
    ['table'],
  ),
  tool(
    'mysql.query',
    'Execute a SQL statement on a MySQL or MariaDB database.',
    ['database', 'sql', 'mysql'],
    { sql: text('Statement.'), database: text('Database name.') },
    ['sql'],
  ),
  tool(
    'mongodb.find',
    'Find documents in a MongoDB collection with a filter, projection and sort.',
    ['database', 'nosql', 'mongodb'],
    {
      collection: text('Collection.'),
      filter: object('Query filter, MongoDB syntax.', {}),
      limit: pageSize,
    },
    ['collection'],
  ),
  tool(
    'mongodb.insert',
    'Insert one or more documents into a MongoDB collection.',
    ['database', 'nosql', 'mongodb'],
    { collection: text('Collection.'), documents: list('Documents.', { type: 'object' }) },
    ['collection', 'documents'],
  ),
  tool(
    'redis.get',
    'Read the value stored under a key in Redis.',
    ['database', 'cache', 'redis'],
    { key: text('Key.') },
    ['key'],
  ),
  tool(
    'redis.set',
    'Store a value under a key in Redis, with an optional expiry (TTL).',
    ['database', 'cache', 'redis'],
    { key: text('Key.'), value: text('Value.'), ttl_seconds: integer('Expire after.') },
    ['key', 'value'],
  ),
  tool(
    'bigquery.run_query',
    'Run a SQL query in BigQuery over the data warehouse and return the result rows.',
    ['database', 'sql', 'analytics'],
    { query: text('Standard SQL.'), dry_run: flag('Only estimate bytes processed.') },
    ['query'],
  ),
  tool(
    'elasticsearch.search',
    'Full-text search over an Elasticsearch index with the query DSL.',
    ['database', 'search'],
    { index: text('Index.'), query: object('Query DSL.', {}) },
    ['index', 'query'],
  ),
  tool(
    'db.backup',
    'Start a backup snapshot of a managed database instance.',
    ['database', 'ops'],
    { instance_id: text('Database instance.') },
    ['instance_id'],
  ),
];

const tickets: CatalogTool[] = [
  tool(
    'jira.create_issue',
    'Create a Jira issue (bug, task or story) in a project.',
    ['jira', 'tickets', 'project-management'],
    {
      project_key: text('Project key, e.g. "ENG".'),
      summary: text('One-line summary.'),
      description: text('Details.'),
      issue_type: choice(['Bug', 'Task', 'Story', 'Epic'], 'Type.'),
      priority: choice(['Highest', 'High', 'Medium', 'Low'], 'Priority.'),
    },
    ['project_key', 'summary'],
  ),
  tool(
    'jira.search_issues',
    'Find Jira issues with JQL, e.g. open bugs assigned to me.',
    ['jira', 'tickets', 'search'],
    { jql: text('JQL query.'), max_results: pageSize },
    ['jql'],
  ),
  tool(
    'jira.transition_issue',
    'Move a Jira issue through its workflow, e.g. to In Progress or Done.',
    ['jira', 'tickets'],
    { issue_key: text('Issue, e.g. "ENG-42".'), transition: text('Target status.') },
    ['issue_key', 'transition'],
  ),
  tool(
    'jira.add_comment',
    'Comment on a Jira issue.',
    ['jira', 'tickets'],
    { issue_key: text('Issue.'), body: text('Comment.') },
    ['issue_key', 'body'],
  ),
  tool(
    'jira.assign_issue',
    'Assign a Jira issue to a person.',
    ['jira', 'tickets'],
    { issue_key: text('Issue.'), assignee: text('Account id or email.') },
    ['issue_key', 'assignee'],
  ),
  tool(
    'linear.create_issue',
    'Create an issue in a Linear team with title, description, priority and labels.',
    ['linear', 'tickets', 'project-management'],
    { team: text('Team key.'), title: text('Title.'), priority: integer('0-4.') },
    ['team', 'title'],
  ),
  tool(
    'github.create_issue',
    'Open an issue in a GitHub repository.',
    ['github', 'code'],
    {
      owner: text('Repository owner.'),
      repo: text('Repository name.'),
      title: text('Issue title.'),
      body: text('Markdown body.'),
      labels: list('Labels.'),
    },
    ['owner', 'repo', 'title'],
  ),
  tool(
    'github.list_pull_requests',
    'Pull requests of a repository, filtered by state, author or base branch.',
    ['github', 'code'],
    {
      owner: text('Repository owner.'),
      repo: text('Repository name.'),
      state: choice(['open', 'closed', 'all'], 'State.'),
    },
    ['owner', 'repo'],
  ),
  tool(
    'github.merge_pull_request',
    'Merge a pull request with a merge commit, squash or rebase.',
    ['github', 'code'],
    {
      owner: text('Repository owner.'),
      repo: text('Repository name.'),
      pull_number: integer('Pull request number.'),
      merge_method: choice(['merge', 'squash', 'rebase'], 'How.'),
    },
    ['owner', 'repo', 'pull_number'],
  ),
  tool(
    'github.create_repository',
    'Create a new GitHub repository for the user or an organization.',
    ['github', 'code'],
    { name: text('Repository name.'), private: flag('Private.'), org: text('Organization.') },
    ['name'],
  ),
  tool(
    'github.get_file',
    'The contents of a file in a repository at a branch or commit.',
    ['github', 'code'],
    {
      owner: text('Repository owner.'),
      repo: text('Repository name.'),
      path: text('File path.'),
      ref: text('Branch, tag or commit.'),
    },
    ['owner', 'repo', 'path'],
  ),
  tool(
    'github.search_code',
    'Search source code across GitHub repositories.',
    ['github', 'code', 'search'],
    { query: text('Code search query.') },
    ['query'],
  ),
  tool(
    'zendesk.create_ticket',
    'Open a customer support ticket in Zendesk on behalf of a requester.',
    ['support', 'tickets', 'zendesk'],
    {
      subject: text('Subject.'),
      comment: text('First message.'),
      requester_email: text('Customer email.'),
      priority: choice(['low', 'normal', 'high', 'urgent'], 'Priority.'),
    },
    ['subject', 'comment'],
  ),
  tool(
    'zendesk.update_ticket',
    'Change the status, priority or assignee of a support ticket, or add a reply.',
    ['support', 'tickets', 'zendesk'],
    {
      ticket_id: integer('Ticket.'),
      status: choice(['open', 'pending', 'solved'], 'Status.'),
      comment: text('Reply.'),
    },
    ['ticket_id'],
  ),
  tool(
    'zendesk.search_tickets',
    'Search support tickets by requester, status, tag or text.',
    ['support', 'tickets', 'zendesk', 'search'],
    { query: text('Search query.') },
    ['query'],
  ),
  tool(
    'intercom.reply_conversation',
    'Reply to a customer conversation in the Intercom inbox.',
    ['support', 'chat'],
    { conversation_id: text('Conversation.'), body: text('Reply.') },
    ['conversation_id', 'body'],
  ),
];

const language: CatalogTool[] = [
  tool(
    'translate.text',
    'Translate text into another language; the source language is detected when not given.',
    ['translation', 'language'],
    {
      text: text('Text to translate.'),
      target_language: text('Language code to translate into, e.g. "fr".'),
      source_language: text('Language of the text, if known.'),
    },
    ['text', 'target_language'],
  ),
  tool(
    'translate.detect_language',
    'Identify which language a piece of text is written in, with confidence.',
    ['translation', 'language'],
    { text: text('Text to analyse.') },
    ['text'],
  ),
  tool(
    'translate.languages',
    'Languages supported for translation, with their codes.',
    ['translation', 'language'],
    {},
  ),
  tool(
    'translate.document',
    'Translate a whole document (DOCX, PDF, PPTX) keeping its layout.',
    ['translation', 'documents'],
    { file_id: text('Document.'), target_language: text('Target language code.') },
    ['file_id', 'target_language'],
  ),
  tool(
    'text.summarize',
    'Summarize a long text or article into a few sentences or bullet points.',
    ['nlp', 'language'],
    { text: text('Text to summarize.'), max_sentences: integer('Length of the summary.') },
    ['text'],
  ),
  tool(
    'text.sentiment',
    'Sentiment of a text: positive, negative or neutral, with a score.',
    ['nlp', 'language'],
    { text: text('Text to analyse.') },
    ['text'],
  ),
  tool(
    'text.extract_entities',
    'Extract named entities (people, organizations, places, dates) from text.',
    ['nlp', 'language'],
    { text: text('Text.') },
    ['text'],
  ),
  tool(
    'dictionary.define',
    'Definitions, pronunciation and synonyms of an English word.',
    ['language', 'reference'],
    { word: text('The word.') },
    ['word'],
  ),
  tool(
    'text.spellcheck',
    'Check spelling and grammar of a text and suggest corrections.',
    ['nlp', 'language'],
    { text: text('Text.'), language: text('Language code.') },
    ['text'],
  ),
];

const commerce: CatalogTool[] = [
  tool(
    'shop.search_products',
    'Search the product catalog by keyword, category and price range.',
    ['ecommerce', 'products'],
    {
      query: text('Keywords.'),
      category: text('Category.'),
      min_price: number('Lowest price.'),
      max_price: number('Highest price.'),
    },
    ['query'],
  ),
  tool(
    'shop.get_product',
    'One product with variants, price, images and stock level.',
    ['ecommerce', 'products'],
    { product_id: text('Product.') },
    ['product_id'],
  ),
  tool(
    'shop.create_order',
    'Place an order for products for a customer, with shipping address.',
    ['ecommerce', 'orders'],
    {
      customer_id: text('Buyer.'),
      line_items: list(
        'Products and quantities.',
        object('One line.', { product_id: text('Product.'), quantity: integer('How many.') }),
      ),
      shipping_address: text('Where to ship.'),
    },
    ['customer_id', 'line_items'],
  ),
  tool(
    'shop.order_status',
    'Where an order is: paid, packed, shipped or delivered, with the tracking link.',
    ['ecommerce', 'orders'],
    { order_id: text('Order number.') },
    ['order_id'],
  ),
  tool(
    'shop.cancel_order',
    'Cancel an order that has not shipped yet and refund it.',
    ['ecommerce', 'orders'],
    { order_id: text('Order.'), reason: text('Why.') },
    ['order_id'],
  ),
  tool(
    'shop.list_orders',
    'Recent orders, filtered by customer, status or date.',
    ['ecommerce', 'orders'],
    { customer_id: text('Buyer.'), status: text('Status.'), limit: pageSize },
  ),
  tool(
    'shop.update_inventory',
    'Set the stock quantity of a product variant at a warehouse.',
    ['ecommerce', 'inventory'],
    {
      sku: text('Variant SKU.'),
      quantity: integer('Units on hand.'),
      warehouse: text('Location.'),
    },
    ['sku', 'quantity'],
  ),
  tool(
    'shop.create_discount',
    'Create a discount code for a percentage or fixed amount off.',
    ['ecommerce', 'marketing'],
    {
      code: text('Code customers enter, e.g. "SPRING20".'),
      percent_off: number('Percent off.'),
      expires_at: dateTime('Expiry.'),
    },
    ['code'],
  ),
  tool(
    'shop.product_reviews',
    'Customer reviews and average rating of a product.',
    ['ecommerce', 'products'],
    { product_id: text('Product.') },
    ['product_id'],
  ),
  tool(
    'shipping.track',
    'Track a parcel by tracking number across carriers (UPS, FedEx, DHL, USPS): status and delivery estimate.',
    ['shipping', 'logistics'],
    { tracking_number: text('Carrier tracking number.'), carrier: text('Carrier, if known.') },
    ['tracking_number'],
  ),
  tool(
    'shipping.create_label',
    'Buy a shipping label for a parcel and get the label PDF and tracking number.',
    ['shipping', 'logistics'],
    {
      from_address: text('Sender.'),
      to_address: text('Recipient.'),
      weight_grams: integer('Parcel weight.'),
      service: text('Carrier service level.'),
    },
    ['from_address', 'to_address', 'weight_grams'],
  ),
  tool(
    'shipping.rates',
    'Compare carrier rates and delivery times for a parcel.',
    ['shipping', 'logistics'],
    {
      from_postal_code: text('Origin postal code.'),
      to_postal_code: text('Destination postal code.'),
      weight_grams: integer('Parcel weight.'),
    },
    ['from_postal_code', 'to_postal_code', 'weight_grams'],
  ),
  tool(
    'shipping.validate_address',
    'Check and normalize a postal address before shipping.',
    ['shipping', 'logistics'],
    { address: text('Address to check.') },
    ['address'],
  ),
];

const travel: CatalogTool[] = [
  tool(
    'flights.search',
    'Search flight offers between two airports on given dates, sorted by price.',
    ['travel', 'flights'],
    {
      origin: text('Departure airport IATA code, e.g. "OSL".'),
      destination: text('Arrival airport IATA code.'),
      departure_date: date('Outbound date.'),
      return_date: date('Return date, for round trips.'),
      adults: integer('Passengers.'),
      cabin: choice(['economy', 'premium', 'business', 'first'], 'Cabin class.'),
    },
    ['origin', 'destination', 'departure_date'],
  ),
  tool(
    'flights.status',
    'Live status of a flight: on time, delayed or cancelled, gate and terminal.',
    ['travel', 'flights'],
    { flight_number: text('Carrier code and number, e.g. "SK4035".'), date: date('Day.') },
    ['flight_number'],
  ),
  tool(
    'flights.book',
    'Book a flight offer for passengers and issue tickets.',
    ['travel', 'flights'],
    { offer_id: text('Offer from a search.'), passengers: list('Passengers.', { type: 'object' }) },
    ['offer_id', 'passengers'],
  ),
  tool(
    'hotels.search',
    'Hotels available in a city for check-in and check-out dates, with prices.',
    ['travel', 'hotels'],
    {
      city: text('City.'),
      check_in: date('Arrival.'),
      check_out: date('Departure.'),
      guests: integer('Guests.'),
    },
    ['city', 'check_in', 'check_out'],
  ),
  tool(
    'hotels.book',
    'Reserve a hotel room from a search result.',
    ['travel', 'hotels'],
    { offer_id: text('Room offer.'), guest_name: text('Name on the booking.') },
    ['offer_id', 'guest_name'],
  ),
  tool(
    'cars.search_rentals',
    'Rental cars available at a pick-up location and dates.',
    ['travel', 'cars'],
    { pickup_location: text('Where.'), pickup_at: dateTime('From.'), dropoff_at: dateTime('To.') },
    ['pickup_location', 'pickup_at', 'dropoff_at'],
  ),
  tool(
    'trains.timetable',
    'Train departures between two stations, with platforms and delays.',
    ['travel', 'rail'],
    { from_station: text('From.'), to_station: text('To.'), departure: dateTime('Earliest.') },
    ['from_station', 'to_station'],
  ),
  tool(
    'restaurants.search',
    'Restaurants by cuisine, price level and neighbourhood, with ratings.',
    ['food', 'places'],
    { location, cuisine: text('e.g. "sushi".'), price_level: integer('1-4.') },
    ['location'],
  ),
  tool(
    'restaurants.reserve',
    'Book a table at a restaurant for a party size and time.',
    ['food', 'booking'],
    {
      restaurant_id: text('Restaurant.'),
      party_size: integer('People.'),
      time: dateTime('Reservation time.'),
    },
    ['restaurant_id', 'party_size', 'time'],
  ),
  tool(
    'events.search_tickets',
    'Concert, theatre and sports tickets for events in a city.',
    ['entertainment', 'booking'],
    { city: text('City.'), keyword: text('Artist, team or show.'), date: date('Day.') },
    ['city'],
  ),
];

const people: CatalogTool[] = [
  tool(
    'hr.list_employees',
    'Employees in the HR system, filtered by department, location or manager.',
    ['hr', 'people'],
    { department: text('Department.'), manager_id: text('Manager.'), limit: pageSize },
  ),
  tool(
    'hr.get_employee',
    "One employee's profile: title, department, manager, start date and contact details.",
    ['hr', 'people'],
    { employee_id: text('Employee.') },
    ['employee_id'],
  ),
  tool(
    'hr.request_time_off',
    'Submit a leave request (vacation, sick day, parental leave) for approval.',
    ['hr', 'people', 'leave'],
    {
      employee_id: text('Who.'),
      type: choice(['vacation', 'sick', 'parental', 'unpaid'], 'Kind of leave.'),
      start_date: date('First day off.'),
      end_date: date('Last day off.'),
    },
    ['employee_id', 'type', 'start_date', 'end_date'],
  ),
  tool(
    'hr.pto_balance',
    'Remaining paid time off (vacation days) of an employee this year.',
    ['hr', 'people', 'leave'],
    { employee_id: text('Employee.') },
    ['employee_id'],
  ),
  tool(
    'hr.onboard_employee',
    'Start onboarding a new hire: accounts, equipment and first-day checklist.',
    ['hr', 'people'],
    {
      first_name: text('Given name.'),
      last_name: text('Family name.'),
      start_date: date('First day.'),
      role: text('Job title.'),
    },
    ['first_name', 'last_name', 'start_date'],
  ),
  tool(
    'payroll.run',
    'Run payroll for a pay period and pay employees their salaries.',
    ['hr', 'payroll', 'finance'],
    { period_start: date('First day.'), period_end: date('Last day.') },
    ['period_start', 'period_end'],
  ),
  tool(
    'payroll.payslip',
    "An employee's payslip for a month: gross pay, taxes and net pay.",
    ['hr', 'payroll'],
    { employee_id: text('Employee.'), month: text('Month as YYYY-MM.') },
    ['employee_id', 'month'],
  ),
  tool(
    'recruiting.create_candidate',
    'Add a job applicant with resume to a job opening in the applicant tracking system.',
    ['hr', 'recruiting'],
    { job_id: text('Job opening.'), name: text('Candidate name.'), resume_url: text('CV link.') },
    ['job_id', 'name'],
  ),
  tool(
    'recruiting.schedule_interview',
    'Schedule an interview between a candidate and interviewers.',
    ['hr', 'recruiting', 'scheduling'],
    {
      candidate_id: text('Candidate.'),
      interviewers: list('Interviewer emails.'),
      start: dateTime('When.'),
    },
    ['candidate_id', 'interviewers'],
  ),
];

const docs: CatalogTool[] = [
  tool(
    'notion.create_page',
    'Create a Notion page in a database or under a parent page, with properties and content.',
    ['notion', 'docs', 'notes'],
    { parent_id: text('Database or page.'), title: text('Title.'), content: text('Markdown.') },
    ['parent_id', 'title'],
  ),
  tool(
    'notion.search',
    'Search Notion pages and databases the integration can access by title.',
    ['notion', 'docs', 'search'],
    { query: text('Title words.') },
    ['query'],
  ),
  tool(
    'notion.append_blocks',
    'Append paragraphs, to-dos or headings to an existing Notion page.',
    ['notion', 'docs'],
    { page_id: text('Page.'), blocks: list('Blocks.', { type: 'object' }) },
    ['page_id', 'blocks'],
  ),
  tool(
    'docs.create_document',
    'Create a Google Docs document with a title and initial text.',
    ['docs', 'documents'],
    { title: text('Title.'), body: text('Initial text.') },
    ['title'],
  ),
  tool(
    'docs.export',
    'Export a document as PDF, DOCX or Markdown.',
    ['docs', 'documents'],
    { document_id: text('Document.'), format: choice(['pdf', 'docx', 'markdown'], 'Format.') },
    ['document_id', 'format'],
  ),
  tool(
    'sheets.append_row',
    'Append a row of values to a Google Sheets spreadsheet.',
    ['sheets', 'spreadsheets'],
    {
      spreadsheet_id: text('Spreadsheet.'),
      sheet: text('Tab name.'),
      values: list('Cell values, left to right.', {}),
    },
    ['spreadsheet_id', 'values'],
  ),
  tool(
    'sheets.read_range',
    'Read cell values from a range of a spreadsheet, e.g. "Sheet1!A1:D20".',
    ['sheets', 'spreadsheets'],
    { spreadsheet_id: text('Spreadsheet.'), range: text('A1 notation.') },
    ['spreadsheet_id', 'range'],
  ),
  tool(
    'sheets.create',
    'Create a new spreadsheet with named tabs.',
    ['sheets', 'spreadsheets'],
    { title: text('Title.'), tabs: list('Tab names.') },
    ['title'],
  ),
  tool(
    'confluence.search',
    'Search the Confluence wiki for pages and blog posts.',
    ['confluence', 'docs', 'search'],
    { cql: text('Confluence query language.') },
    ['cql'],
  ),
  tool(
    'esign.send_envelope',
    'Send a contract or agreement for electronic signature (DocuSign envelope) to signers.',
    ['legal', 'esignature'],
    {
      document_id: text('Document to sign.'),
      signers: list(
        'Signers.',
        object('One signer.', { name: text('Name.'), email: text('Email.') }),
      ),
      subject: text('Email subject.'),
    },
    ['document_id', 'signers'],
  ),
  tool(
    'esign.envelope_status',
    'Whether each signer has viewed or signed an envelope.',
    ['legal', 'esignature'],
    { envelope_id: text('Envelope.') },
    ['envelope_id'],
  ),
];

const ops: CatalogTool[] = [
  tool(
    'k8s.list_pods',
    'Pods in a Kubernetes namespace with status, restarts and node.',
    ['kubernetes', 'devops'],
    { namespace: text('Namespace.'), label_selector: text('e.g. "app=web".') },
  ),
  tool(
    'k8s.restart_deployment',
    'Rolling restart of a Kubernetes deployment.',
    ['kubernetes', 'devops'],
    { namespace: text('Namespace.'), deployment: text('Deployment name.') },
    ['namespace', 'deployment'],
  ),
  tool(
    'k8s.scale_deployment',
    'Change the number of replicas of a Kubernetes deployment.',
    ['kubernetes', 'devops'],
    {
      namespace: text('Namespace.'),
      deployment: text('Deployment name.'),
      replicas: integer('Replica count.'),
    },
    ['namespace', 'deployment', 'replicas'],
  ),
  tool(
    'k8s.pod_logs',
    'Recent log lines of a pod container.',
    ['kubernetes', 'devops', 'logs'],
    {
      namespace: text('Namespace.'),
      pod: text('Pod name.'),
      container: text('Container.'),
      tail_lines: integer('How many lines.'),
    },
    ['namespace', 'pod'],
  ),
  tool(
    'aws.ec2_instances',
    'EC2 virtual machines in a region with state, type and IP addresses.',
    ['aws', 'cloud', 'devops'],
    { region: text('AWS region, e.g. "eu-north-1".'), state: text('Instance state.') },
    ['region'],
  ),
  tool(
    'aws.cost_report',
    'Cloud spend by service and day for a date range from AWS Cost Explorer.',
    ['aws', 'cloud', 'finance'],
    { start: date('First day.'), end: date('Last day.') },
    ['start', 'end'],
  ),
  tool(
    'logs.search',
    'Search application logs by text, service and time range.',
    ['observability', 'logs'],
    {
      query: text('Text or field filter.'),
      service: text('Service name.'),
      from: dateTime('Start.'),
      to: dateTime('End.'),
    },
    ['query'],
  ),
  tool(
    'metrics.query',
    'Query time-series metrics (PromQL) such as CPU usage or request latency.',
    ['observability', 'metrics'],
    { promql: text('PromQL expression.'), range_minutes: integer('Window.') },
    ['promql'],
  ),
  tool(
    'monitoring.create_alert',
    'Create an alert rule that notifies when a metric crosses a threshold.',
    ['observability', 'alerts'],
    {
      metric: text('Metric.'),
      threshold: number('Value that triggers.'),
      channel: text('Where to notify.'),
    },
    ['metric', 'threshold'],
  ),
  tool(
    'pagerduty.trigger_incident',
    'Trigger a PagerDuty incident that pages the on-call responder of a service.',
    ['incidents', 'on-call'],
    {
      service_id: text('Service.'),
      title: text('What is wrong.'),
      urgency: choice(['high', 'low'], 'Urgency.'),
    },
    ['service_id', 'title'],
  ),
  tool(
    'pagerduty.acknowledge',
    'Acknowledge an incident so escalation stops.',
    ['incidents', 'on-call'],
    { incident_id: text('Incident.') },
    ['incident_id'],
  ),
  tool(
    'pagerduty.oncall',
    'Who is on call now for a schedule or escalation policy.',
    ['incidents', 'on-call'],
    { schedule_id: text('Schedule.') },
    ['schedule_id'],
  ),
  tool(
    'dns.lookup',
    'Resolve DNS records (A, AAAA, MX, TXT, CNAME) of a domain.',
    ['dns', 'network'],
    { domain: text('Domain name.'), type: choice(['A', 'AAAA', 'MX', 'TXT', 'CNAME'], 'Type.') },
    ['domain'],
  ),
  tool(
    'dns.update_record',
    'Create or update a DNS record in a hosted zone.',
    ['dns', 'network'],
    {
      zone: text('Zone.'),
      name: text('Record name.'),
      type: text('Record type.'),
      value: text('Value.'),
      ttl: integer('TTL seconds.'),
    },
    ['zone', 'name', 'type', 'value'],
  ),
  tool(
    'ssl.check_certificate',
    "Inspect a site's TLS certificate: issuer, validity dates and days until it expires.",
    ['security', 'network'],
    { hostname: text('Host name.') },
    ['hostname'],
  ),
  tool(
    'uptime.check',
    'Check whether a website or URL is up, with HTTP status and response time.',
    ['monitoring', 'network'],
    { url: text('URL to probe.') },
    ['url'],
  ),
  tool(
    'ci.trigger_build',
    'Start a CI pipeline run for a branch.',
    ['ci', 'devops'],
    { pipeline: text('Pipeline.'), branch: text('Branch.') },
    ['pipeline', 'branch'],
  ),
  tool(
    'ci.build_status',
    'Status and failed steps of the latest CI runs.',
    ['ci', 'devops'],
    { pipeline: text('Pipeline.') },
    ['pipeline'],
  ),
  tool(
    'security.scan_url',
    'Scan a URL for malware and phishing with several antivirus engines.',
    ['security'],
    { url: text('URL.') },
    ['url'],
  ),
  tool(
    'vault.read_secret',
    'Read a secret (password, API token) from the secrets vault.',
    ['security', 'secrets'],
    { path: text('Secret path.') },
    ['path'],
  ),
];

const web: CatalogTool[] = [
  tool(
    'web.search',
    'Search the web and return the top result titles, URLs and snippets.',
    ['web', 'search'],
    { query: text('Search terms.'), count: pageSize, freshness: text('e.g. "past week".') },
    ['query'],
  ),
  tool(
    'web.fetch_page',
    'Fetch a web page and return its readable text (HTML stripped).',
    ['web'],
    { url: text('Page URL.') },
    ['url'],
  ),
  tool(
    'web.screenshot',
    'Take a screenshot of a web page as PNG.',
    ['web', 'images'],
    { url: text('Page URL.'), full_page: flag('Whole page, not just the viewport.') },
    ['url'],
  ),
  tool(
    'news.search',
    'Search news articles by keyword, source and date.',
    ['news', 'search'],
    { query: text('Keywords.'), from: date('Oldest.'), language: text('Language.') },
    ['query'],
  ),
  tool(
    'news.headlines',
    'Top headlines right now, by country and category (business, sports, technology).',
    ['news'],
    { country: text('Country code.'), category: text('Category.') },
  ),
  tool(
    'wikipedia.summary',
    'The introduction of a Wikipedia article about a topic.',
    ['reference', 'web'],
    { title: text('Article title.'), language: text('Wiki language.') },
    ['title'],
  ),
  tool(
    'youtube.search',
    'Search YouTube videos by keywords, with channel, views and duration.',
    ['video', 'social'],
    { query: text('Keywords.'), max_results: pageSize },
    ['query'],
  ),
  tool(
    'social.post_tweet',
    'Publish a post on X (Twitter), optionally with images.',
    ['social'],
    { text: text('Post text, up to 280 characters.'), media_ids: list('Uploaded images.') },
    ['text'],
  ),
  tool(
    'social.linkedin_post',
    'Share a post on LinkedIn as the user or a company page.',
    ['social'],
    { text: text('Post text.'), visibility: choice(['public', 'connections'], 'Audience.') },
    ['text'],
  ),
  tool(
    'rss.read_feed',
    'Latest items of an RSS or Atom feed.',
    ['web', 'news'],
    { feed_url: text('Feed URL.') },
    ['feed_url'],
  ),
];

const media: CatalogTool[] = [
  tool(
    'images.generate',
    'Generate an image from a text prompt.',
    ['images', 'ai'],
    {
      prompt: text('What to draw.'),
      size: choice(['512x512', '1024x1024'], 'Size.'),
      style: text('Style.'),
    },
    ['prompt'],
  ),
  tool(
    'images.resize',
    'Resize, crop or compress an image to given dimensions.',
    ['images'],
    { image_url: text('Source image.'), width: integer('Pixels.'), height: integer('Pixels.') },
    ['image_url'],
  ),
  tool(
    'images.remove_background',
    'Cut out the subject of a photo and make the background transparent.',
    ['images', 'ai'],
    { image_url: text('Photo.') },
    ['image_url'],
  ),
  tool(
    'images.ocr',
    'Read the printed or handwritten text in an image or scanned document (OCR).',
    ['images', 'documents', 'ai'],
    { image_url: text('Image or scan.'), language: text('Language hint.') },
    ['image_url'],
  ),
  tool(
    'audio.transcribe',
    'Speech to text: transcribe an audio or video recording, with timestamps and speakers.',
    ['audio', 'ai'],
    { audio_url: text('Recording.'), language: text('Spoken language.') },
    ['audio_url'],
  ),
  tool(
    'audio.text_to_speech',
    'Synthesize natural speech audio (MP3) from text with a chosen voice.',
    ['audio', 'ai'],
    { text: text('What to say.'), voice: text('Voice name.') },
    ['text'],
  ),
  tool(
    'video.transcode',
    'Convert a video to another format or resolution (MP4, WebM, 720p, 1080p).',
    ['video'],
    { video_url: text('Source.'), format: text('Target format.'), resolution: text('e.g. 720p.') },
    ['video_url', 'format'],
  ),
  tool(
    'music.search_tracks',
    'Find songs by title, artist or album on a streaming service.',
    ['music'],
    { query: text('Song, artist or album.') },
    ['query'],
  ),
];

const utilities: CatalogTool[] = [
  tool(
    'math.evaluate',
    'Evaluate a math expression, e.g. "sqrt(2) * 15 / 4".',
    ['math', 'utilities'],
    { expression: text('Expression.') },
    ['expression'],
  ),
  tool('time.now', 'The current date and time in a time zone.', ['time', 'utilities'], {
    timezone: text('IANA time zone, e.g. "Asia/Tokyo".'),
  }),
  tool(
    'time.convert_timezone',
    'Convert a date and time from one time zone to another.',
    ['time', 'utilities'],
    {
      datetime: dateTime('The time to convert.'),
      from_timezone: text('Source zone.'),
      to_timezone: text('Target zone.'),
    },
    ['datetime', 'to_timezone'],
  ),
  tool(
    'units.convert',
    'Convert between units of measurement: length, weight, temperature, volume.',
    ['utilities'],
    {
      value: number('Quantity.'),
      from_unit: text('e.g. "mi".'),
      to_unit: text('e.g. "km".'),
    },
    ['value', 'from_unit', 'to_unit'],
  ),
  tool(
    'qr.generate',
    'Generate a QR code image that encodes a URL or text.',
    ['utilities', 'images'],
    { data: text('URL or text to encode.'), size: integer('Pixels.') },
    ['data'],
  ),
  tool('id.uuid', 'Generate random UUIDs.', ['utilities'], { count: integer('How many.') }),
  tool(
    'crypto.hash',
    'Compute a SHA-256, SHA-1 or MD5 hash of a string.',
    ['utilities', 'security'],
    { input: text('Text.'), algorithm: choice(['sha256', 'sha1', 'md5'], 'Algorithm.') },
    ['input'],
  ),
  tool(
    'holidays.list',
    'Public holidays of a country in a year.',
    ['time', 'reference'],
    { country: text('Country code.'), year: integer('Year.') },
    ['country'],
  ),
  tool(
    'phone.validate',
    'Validate a phone number and return its country, carrier and line type.',
    ['utilities', 'messaging'],
    { phone: text('Phone number.') },
    ['phone'],
  ),
  tool(
    'email.verify_address',
    'Check whether an email address exists and accepts mail, without sending one.',
    ['utilities', 'email'],
    { email: text('Address.') },
    ['email'],
  ),
  tool('users.get', 'A user account of the application by id or email.', ['users', 'auth'], {
    user_id: text('User id.'),
    email: text('Or their email.'),
  }),
  tool(
    'users.create',
    'Create an application user account and send the welcome email.',
    ['users', 'auth'],
    { email: text('Login email.'), name: text('Display name.'), role: text('Role.') },
    ['email'],
  ),
  tool(
    'users.reset_password',
    'Send a user a password reset link.',
    ['users', 'auth'],
    { email: text('Account email.') },
    ['email'],
  ),
  tool(
    'users.disable',
    'Lock a user account and end its sessions.',
    ['users', 'auth', 'security'],
    { user_id: text('User.'), reason: text('Why.') },
    ['user_id'],
  ),
];

const analytics: CatalogTool[] = [
  tool(
    'analytics.run_report',
    'Run a web analytics report of metrics (sessions, conversions) by dimensions over a date range.',
    ['analytics'],
    {
      metrics: list('e.g. sessions, conversions.'),
      dimensions: list('e.g. country, source.'),
      start_date: date('From.'),
      end_date: date('To.'),
    },
    ['metrics', 'start_date', 'end_date'],
  ),
  tool(
    'analytics.track_event',
    'Record a product analytics event for a user, with properties.',
    ['analytics'],
    {
      user_id: text('Who.'),
      event: text('Event name, e.g. "Signed Up".'),
      properties: object('Event properties.', {}),
    },
    ['event'],
  ),
  tool(
    'analytics.funnel',
    'Conversion rates between the steps of a funnel of events.',
    ['analytics'],
    { steps: list('Event names in order.'), days: integer('Window.') },
    ['steps'],
  ),
  tool('analytics.active_users', 'Daily, weekly and monthly active users.', ['analytics'], {
    interval: choice(['day', 'week', 'month'], 'Granularity.'),
  }),
  tool(
    'ads.campaign_performance',
    'Impressions, clicks, cost and conversions of ad campaigns.',
    ['marketing', 'analytics'],
    { campaign_ids: list('Campaigns.'), start_date: date('From.'), end_date: date('To.') },
  ),
  tool(
    'surveys.responses',
    'Responses to a survey or form, with per-question summaries.',
    ['surveys', 'analytics'],
    { survey_id: text('Survey.') },
    ['survey_id'],
  ),
];

/** About 230 tools across the domains a tool-calling platform carries. */
export const SEARCH_CATALOG: readonly CatalogTool[] = [
  ...weather,
  ...geo,
  ...payments,
  ...money_tools,
  ...crm,
  ...calendar,
  ...files,
  ...email,
  ...messaging,
  ...databases,
  ...tickets,
  ...language,
  ...commerce,
  ...travel,
  ...people,
  ...docs,
  ...ops,
  ...web,
  ...media,
  ...utilities,
  ...analytics,
];

/** Queries as people and models write them, each with the one tool it is after. */
export const SEARCH_QUERIES: readonly LabelledQuery[] = [
  // as the issue reported them
  { query: 'weather forecast for a city', expected: 'weather.forecast' },
  { query: 'latitude longitude', expected: 'geocoding.reverse' },
  { query: 'what is the weather like right now', expected: 'weather.current' },
  { query: 'will it rain this weekend', expected: 'weather.forecast' },
  { query: 'storm warnings', expected: 'weather.alerts' },
  { query: 'air pollution levels', expected: 'weather.air_quality' },
  { query: 'convert an address to coordinates', expected: 'geocoding.forward' },
  { query: 'driving directions from home to the airport', expected: 'maps.directions' },
  { query: 'pharmacies near me', expected: 'maps.nearby_places' },
  { query: 'what country is this IP address from', expected: 'geoip.lookup' },
  { query: 'refund a payment', expected: 'payments.refund' },
  { query: 'charge a credit card', expected: 'payments.create_charge' },
  { query: 'cancel my subscription', expected: 'payments.cancel_subscription' },
  { query: 'email an invoice to a customer', expected: 'payments.send_invoice' },
  { query: 'convert USD to EUR', expected: 'currency.convert' },
  { query: 'today exchange rates', expected: 'currency.rates' },
  { query: 'bitcoin price', expected: 'crypto.price' },
  { query: 'AAPL stock price', expected: 'stocks.quote' },
  { query: 'add a new contact', expected: 'crm.create_contact' },
  { query: 'move deal to closed won', expected: 'crm.update_deal_stage' },
  { query: 'duplicate contacts', expected: 'crm.merge_contacts' },
  { query: 'schedule a meeting with the team', expected: 'calendar.create_event' },
  { query: 'when is everyone available', expected: 'calendar.find_free_slots' },
  { query: 'decline a meeting invitation', expected: 'calendar.respond_to_invite' },
  { query: 'upload a file to drive', expected: 'files.upload' },
  { query: 'share a document with a colleague', expected: 'files.share' },
  { query: 'send an email', expected: 'email.send' },
  { query: 'reply to this message', expected: 'email.reply' },
  { query: 'post to a slack channel', expected: 'slack.post_message' },
  { query: 'text message to a phone number', expected: 'sms.send' },
  { query: 'run a sql query on postgres', expected: 'postgres.query' },
  { query: 'columns of a database table', expected: 'postgres.describe_table' },
  { query: 'open a bug in jira', expected: 'jira.create_issue' },
  { query: 'merge a pull request', expected: 'github.merge_pull_request' },
  { query: 'customer support ticket', expected: 'zendesk.create_ticket' },
  { query: 'translate to french', expected: 'translate.text' },
  { query: 'which language is this text written in', expected: 'translate.detect_language' },
  { query: 'where is my parcel', expected: 'shipping.track' },
  { query: 'cheap flights to london', expected: 'flights.search' },
  { query: 'is my flight delayed', expected: 'flights.status' },
  { query: 'book a hotel room', expected: 'hotels.book' },
  { query: 'how many vacation days do I have left', expected: 'hr.pto_balance' },
  { query: 'restart the kubernetes deployment', expected: 'k8s.restart_deployment' },
  { query: 'page whoever is on call', expected: 'pagerduty.trigger_incident' },
  { query: 'latest news headlines', expected: 'news.headlines' },
  { query: 'transcribe a recording', expected: 'audio.transcribe' },
  { query: 'text to speech', expected: 'audio.text_to_speech' },
  { query: 'make a QR code for a link', expected: 'qr.generate' },
  { query: 'what time is it in tokyo', expected: 'time.now' },
  { query: 'append a row to a google sheet', expected: 'sheets.append_row' },
  { query: 'get a contract signed electronically', expected: 'esign.send_envelope' },
  { query: 'when does the ssl certificate expire', expected: 'ssl.check_certificate' },
  { query: 'forgot password', expected: 'users.reset_password' },
  { query: 'summarize an article', expected: 'text.summarize' },
  { query: 'reserve a table for four at 8pm', expected: 'restaurants.reserve' },
  // parameter names, the way a model that knows its arguments asks
  { query: 'tracking_number', expected: 'shipping.track' },
  { query: 'origin destination departure_date', expected: 'flights.search' },
  { query: 'owner repo pull_number', expected: 'github.merge_pull_request' },
  { query: 'spreadsheet_id range', expected: 'sheets.read_range' },
  { query: 'sku quantity warehouse', expected: 'shop.update_inventory' },
  // partial words, as typed into a search box
  { query: 'geocod', expected: 'geocoding.forward' },
  { query: 'weather forec', expected: 'weather.forecast' },
  { query: 'refund paym', expected: 'payments.refund' },
  { query: 'kubernetes pod log', expected: 'k8s.pod_logs' },
  { query: 'transcod video', expected: 'video.transcode' },
  // misspellings
  { query: 'wether forcast', expected: 'weather.forecast' },
  { query: 'curency convert', expected: 'currency.convert' },
  { query: 'shiping label', expected: 'shipping.create_label' },
  { query: 'calender event', expected: 'calendar.create_event' },
  { query: 'translte text', expected: 'translate.text' },
];
