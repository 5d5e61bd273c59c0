-- A hand-written banking schema (not derived from any spec): the shape of the unseen enterprise check.
CREATE TABLE customers ( -- People and companies holding accounts
  id INTEGER PRIMARY KEY,
  full_name TEXT, -- The customer's name
  segment TEXT, -- one of: retail, business, private
  country TEXT,
  joined_on TEXT -- format: date
);

CREATE TABLE accounts ( -- Current and savings accounts
  id INTEGER PRIMARY KEY,
  customer_id INTEGER REFERENCES customers(id),
  iban TEXT,
  currency TEXT, -- one of: EUR, USD, GBP
  balance REAL, -- Current balance in the account currency
  status TEXT, -- one of: open, frozen, closed
  opened_on TEXT -- format: date
);

CREATE TABLE payments ( -- Outgoing payments
  id INTEGER PRIMARY KEY,
  account_id INTEGER REFERENCES accounts(id),
  amount REAL,
  currency TEXT,
  beneficiary_name TEXT,
  status TEXT, -- one of: pending, executed, rejected
  created_at TEXT -- format: date-time
);

CREATE TABLE cards (
  id INTEGER PRIMARY KEY,
  account_id INTEGER REFERENCES accounts(id),
  card_type TEXT, -- one of: debit, credit
  daily_limit REAL,
  is_blocked INTEGER -- boolean 0/1
);
