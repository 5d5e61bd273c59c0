CREATE TABLE customer_preferences ( -- Returned by GET /customer-preferences
  id TEXT PRIMARY KEY, -- Unique identifier for the customer preference entry.
  timestamp TEXT -- Timestamp of when preferences were captured.; format: date-time
);

CREATE TABLE destination_highlights ( -- Returned by GET /destinations/highlights
  name TEXT, -- Name of the destination.
  description TEXT -- Description of the destination highlight.
);

CREATE TABLE events ( -- Returned by GET /events/list
  id TEXT PRIMARY KEY, -- Unique identifier for the event.
  name TEXT, -- Name of the event.
  location TEXT, -- Location of the event.
  date TEXT, -- Date of the event.; format: date
  category TEXT -- Category of the event.
);

CREATE TABLE forecasts ( -- Returned by GET /market-demand/forecasts
  region TEXT,
  predictedDemand REAL -- Expected market demand.
);

CREATE TABLE guest_preferences ( -- Returned by GET /guest-preferences/{id}
  smoking INTEGER, -- boolean 0/1
  bedType TEXT
);

CREATE TABLE ingredients ( -- Returned by GET /ingredients
  id TEXT PRIMARY KEY, -- Unique identifier for the ingredient.
  name TEXT, -- Name of the ingredient.
  available INTEGER -- Indicates whether the ingredient is currently available.; boolean 0/1
);

CREATE TABLE itinerary_items ( -- Returned by GET /itinerary/view
  itemId TEXT, -- Unique ID of the itinerary item.
  type TEXT -- Type of the item (event or tour).
);

CREATE TABLE loyalty_engagements ( -- Returned by GET /loyalty/engagement-stats
  engagementRate REAL,
  retentionRate REAL
);

CREATE TABLE menus ( -- Returned by GET /menus, GET /menus/{id}
  id TEXT PRIMARY KEY, -- Unique identifier for the menu.
  name TEXT, -- Name of the menu.
  available INTEGER, -- Indicates whether the menu is currently available.; boolean 0/1
  createdAt TEXT, -- Timestamp when the menu was created.; format: date-time
  updatedAt TEXT -- Timestamp when the menu was last updated.; format: date-time
);

CREATE TABLE notifications ( -- Returned by GET /notifications/list
  id TEXT PRIMARY KEY, -- Unique identifier for the notification.
  message TEXT, -- Notification message text.
  timestamp TEXT -- Timestamp of the notification.; format: date-time
);

CREATE TABLE predictions ( -- Returned by GET /sales/predictions
  date TEXT, -- format: date
  salesAmount REAL
);

CREATE TABLE rooms ( -- Returned by GET /rooms, GET /rooms/{id}
  id INTEGER PRIMARY KEY,
  type TEXT,
  pricePerNight INTEGER,
  status TEXT
);

CREATE TABLE reservations ( -- Returned by GET /reservations
  id INTEGER PRIMARY KEY,
  guestId INTEGER,
  roomId INTEGER REFERENCES rooms(id),
  checkIn TEXT, -- format: date
  checkOut TEXT, -- format: date
  status TEXT
);

CREATE TABLE sales_comparisons ( -- Returned by GET /regional/sales-comparisons
  region TEXT,
  sales REAL
);

CREATE TABLE sales_reports ( -- Returned by GET /dealerships/sales-report
  model TEXT,
  unitsSold REAL,
  revenue REAL
);

CREATE TABLE tours ( -- Returned by GET /tours/list
  id TEXT PRIMARY KEY, -- Unique identifier for the tour.
  name TEXT, -- Name of the tour.
  destination TEXT, -- Main destination of the tour.
  duration INTEGER -- Duration of the tour in days.
);

CREATE TABLE trending_products ( -- Returned by GET /trends/top-products
  id TEXT PRIMARY KEY, -- Unique identifier for the product.
  name TEXT, -- Name of the product.
  category TEXT, -- Category the product belongs to.
  engagementScore REAL -- Score representing recent consumer engagement with the product.
);

CREATE TABLE trends ( -- Returned by GET /vehicle-data/trends, GET /vehicle-pricing/trends
  region TEXT,
  model TEXT,
  timeframe TEXT,
  sales REAL, -- Number of vehicles sold.
  category TEXT
);
