SELECT COUNT(*) FROM order_items
